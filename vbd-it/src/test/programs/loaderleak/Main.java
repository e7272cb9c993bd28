import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;

/**
 * Loads plugin classes through a URLClassLoader, runs them, discards the loader, then asks the
 * collector, a bounded number of times, to reclaim it: a redeploying server does this each time.
 */
public class Main {
    static final int GC_ATTEMPTS = 50;

    public static void main(String[] args) throws Exception {
        URL classes = Main.class.getProtectionDomain().getCodeSource().getLocation();
        WeakReference<ClassLoader> ref = deployAndDiscard(classes);
        int attempts = 0;
        while (ref.get() != null && attempts < GC_ATTEMPTS) {
            attempts++;
            byte[][] garbage = new byte[64][];
            for (int i = 0; i < garbage.length; i++) garbage[i] = new byte[16 * 1024];
            System.gc();
        }
        if (ref.get() == null) {
            System.out.println("loader collected");
        } else {
            System.out.println("loader still reachable after " + GC_ATTEMPTS + " collections");
            System.exit(1);
        }
    }

    private static WeakReference<ClassLoader> deployAndDiscard(URL classes) throws Exception {
        // parent: the platform loader, so that the plugin classes come from this loader, not the app's
        URLClassLoader loader = new URLClassLoader("plugin", new URL[]{classes}, ClassLoader.getPlatformClassLoader());
        Class<?> c = loader.loadClass("plugin.Plugin");
        if (c.getClassLoader() != loader) throw new AssertionError("plugin.Plugin came from " + c.getClassLoader());
        Object result = c.getMethod("run").invoke(c.getConstructor().newInstance());
        System.out.println("plugin ran: " + result);
        loader.close();
        return new WeakReference<>(loader);
    }
}
