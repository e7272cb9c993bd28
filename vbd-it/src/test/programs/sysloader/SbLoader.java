/**
 * A custom system class loader without {@code appendToClassPathForInstrumentation}: the JVM
 * defines it, and {@link Cells} and {@link Helper} which its initialisation touches, before any
 * agent starts. Its store-buffering actors work on int arrays it holds in its own static field.
 */
public class SbLoader extends ClassLoader {
    static int[][] cells;
    static int instances;

    public SbLoader(ClassLoader parent) {
        super(parent);
        instances++;
        Helper.init();
    }

    static void allocate(int n) {
        int[][] c = new int[n][];
        for (int i = 0; i < n; i++) c[i] = new int[2];
        cells = c;
    }

    static void actor1(int n, int[] r) { int[][] s = cells; for (int i = 0; i < n; i++) { int[] p = s[i]; p[0] = 1; r[i] = p[1]; } }
    static void actor2(int n, int[] r) { int[][] s = cells; for (int i = 0; i < n; i++) { int[] p = s[i]; p[1] = 1; r[i] = p[0]; } }
}
