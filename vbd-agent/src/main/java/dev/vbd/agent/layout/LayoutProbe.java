package dev.vbd.agent.layout;

/**
 * What the program's code calls at each heap access when {@code vbd layout} looks for false
 * sharing ({@link LayoutVisitor} puts the calls in): the object, which field or element, and
 * whether it is written; at the end of a constructor, and after an array's allocation. It sits on
 * the boot class path so that classes of every loader reach it. Stores to array elements come here
 * whole: the array lies under the index and value on the operand stack.
 */
public final class LayoutProbe {
    private static volatile CacheLines lines;

    private LayoutProbe() {}

    static void start(CacheLines l) {
        lines = l;
    }

    public static void read(Object o, int target) {
        CacheLines l = lines;
        if (l != null && o != null) l.field(o, target, false);
    }

    public static void write(Object o, int target) {
        CacheLines l = lines;
        if (l != null && o != null) l.field(o, target, true);
    }

    /** {@code owner}: the class the instruction names (null in a class file too old for class constants). */
    public static void readStatic(Class<?> owner, int target) {
        CacheLines l = lines;
        if (l != null && owner != null) l.staticField(owner, target, false);
    }

    public static void writeStatic(Class<?> owner, int target) {
        CacheLines l = lines;
        if (l != null && owner != null) l.staticField(owner, target, true);
    }

    /** Before an element's load: the array and the index. */
    public static void load(Object a, int i) {
        CacheLines l = lines;
        if (l != null && a != null) l.element(a, i, false);
    }

    /** At the end of each constructor of a program's class: the object's place among its thread's allocations. */
    public static void constructed(Object o) {
        CacheLines l = lines;
        if (l != null) l.constructed(o);
    }

    /** After an array's allocation at {@code site}. */
    public static void allocated(Object a, int site) {
        CacheLines l = lines;
        if (l != null && a != null) l.allocated(a, site);
    }

    public static void storeInt(int[] a, int i, int v) {
        a[i] = v;
        stored(a, i);
    }

    public static void storeLong(long[] a, int i, long v) {
        a[i] = v;
        stored(a, i);
    }

    public static void storeFloat(float[] a, int i, float v) {
        a[i] = v;
        stored(a, i);
    }

    public static void storeDouble(double[] a, int i, double v) {
        a[i] = v;
        stored(a, i);
    }

    public static void storeReference(Object[] a, int i, Object v) {
        a[i] = v;
        stored(a, i);
    }

    /** {@code bastore}: a byte or a boolean array. */
    public static void storeByte(Object a, int i, int v) {
        if (a instanceof boolean[] z) {
            z[i] = (v & 1) != 0;
        } else {
            ((byte[]) a)[i] = (byte) v;
        }
        stored(a, i);
    }

    public static void storeChar(char[] a, int i, int v) {
        a[i] = (char) v;
        stored(a, i);
    }

    public static void storeShort(short[] a, int i, int v) {
        a[i] = (short) v;
        stored(a, i);
    }

    /** Once a store is done: one that threw wrote nothing. */
    private static void stored(Object a, int i) {
        CacheLines l = lines;
        if (l != null) l.element(a, i, true);
    }
}
