import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.IntSupplier;

/**
 * A spin loop on a final field that a constructor stores after its superclass's constructor
 * published {@code this}: {@code B extends A}, B's constructor stores {@code x} after
 * {@code super()}, and the {@code A} that B links to publishes {@code this}. The loader that defines
 * B links it to a leaking A while its resources show another, harmless A, as plugin systems and
 * servlet containers do.
 *
 * <p>Usage: {@code Main VARIANT LEAKY_DIR BENIGN_DIR WAIT_MILLIS}. LEAKY_DIR holds the leaking A
 * and B; BENIGN_DIR an A that leaks nothing. VARIANT child-first: a loader over LEAKY_DIR that
 * loads its own classes first but leaves {@code getResource} parent-first, its parent a loader
 * over BENIGN_DIR. VARIANT lying: a parent-first loader that defines classes from LEAKY_DIR and
 * answers {@code getResource} from BENIGN_DIR. Prints {@code spin VARIANT ended} or
 * {@code spin VARIANT still spinning}.
 */
public class Main {
    /** Loads the classes it has itself before asking its parent; resources stay parent-first. */
    static final class ChildFirst extends URLClassLoader {
        static {
            registerAsParallelCapable();
        }

        ChildFirst(URL[] urls, ClassLoader parent) {
            super(urls, parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null && findResource(name.replace('.', '/') + ".class") != null) c = findClass(name);
                if (c == null) return super.loadClass(name, resolve);
                if (resolve) resolveClass(c);
                return c;
            }
        }
    }

    /** Defines classes from one folder and shows the resources of another under the same names. */
    static final class Lying extends ClassLoader {
        private final Path classes;
        private final Path resources;

        Lying(Path classes, Path resources, ClassLoader parent) {
            super(parent);
            this.classes = classes;
            this.resources = resources;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            Path f = classes.resolve(name.replace('.', '/') + ".class");
            if (!Files.isRegularFile(f)) throw new ClassNotFoundException(name);
            try {
                byte[] b = Files.readAllBytes(f);
                return defineClass(name, b, 0, b.length);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        protected URL findResource(String name) {
            Path f = resources.resolve(name);
            try {
                return Files.isRegularFile(f) ? f.toUri().toURL() : null;
            } catch (MalformedURLException e) {
                return null;
            }
        }
    }

    static void spin(IntSupplier b) { while (b.getAsInt() == 0) { } }

    public static void main(String[] args) throws Exception {
        String variant = args[0];
        Path leaky = Path.of(args[1]);
        Path benign = Path.of(args[2]);
        long waitMillis = Long.parseLong(args[3]);
        ClassLoader app = Main.class.getClassLoader();
        ClassLoader loader;
        switch (variant) {
            case "child-first":
                loader = new ChildFirst(new URL[]{leaky.toUri().toURL()}, new URLClassLoader(new URL[]{benign.toUri().toURL()}, app));
                break;
            case "lying":
                loader = new Lying(leaky, benign, app);
                break;
            default:
                throw new IllegalArgumentException("unknown variant '" + variant + "'");
        }
        Class<?> b = Class.forName("B", true, loader);
        Thread writer = new Thread(() -> {
            try {
                b.getConstructor().newInstance();
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }, "writer");
        writer.setDaemon(true);
        Thread spinner = new Thread(() -> {
            Object published;
            while ((published = System.getProperties().get("childfirst.published")) == null) Thread.onSpinWait();
            spin((IntSupplier) published);
        }, "spinner");
        spinner.setDaemon(true);
        spinner.start();
        writer.start();
        writer.join();
        spinner.join(waitMillis);
        System.out.println("spin " + variant + (spinner.isAlive() ? " still spinning" : " ended"));
        System.out.flush();
        // a hoisted loop never reaches a point where the JVM could stop it cleanly; an ended one
        // exits normally, so that shutdown hooks (the verifier's report) run
        if (spinner.isAlive()) Runtime.getRuntime().halt(0);
        System.exit(0);
    }
}
