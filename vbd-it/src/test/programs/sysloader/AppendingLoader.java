import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;

/** A custom system class loader that supports agents: it adds their jars to its own search path. */
public class AppendingLoader extends URLClassLoader {
    public AppendingLoader(ClassLoader parent) {
        super(new URL[0], parent);
        SbLoader.allocate(1);
        Helper.init();
    }

    void appendToClassPathForInstrumentation(String path) throws MalformedURLException {
        addURL(new File(path).toURI().toURL());
    }
}
