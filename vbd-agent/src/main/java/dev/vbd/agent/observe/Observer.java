package dev.vbd.agent.observe;

/**
 * What the observed program's code calls at each heap access and lock operation ({@link
 * ObservingClassVisitor} puts the calls in): before a read, after a write, so that a read recorded
 * after a write's record comes after the write itself. It sits on the boot class path so that classes of
 * every loader reach it. Stores to array elements come here whole: the array lies under the index
 * and value on the operand stack, out of reach of a simple copy.
 */
public final class Observer {
    private static volatile Recorder recorder;

    private Observer() {}

    static void start(Recorder r) {
        recorder = r;
    }

    public static void read(Object o, int site) {
        Recorder r = recorder;
        if (r != null && o != null) r.access(o, site, false);
    }

    public static void write(Object o, int site) {
        Recorder r = recorder;
        if (r != null && o != null) r.access(o, site, true);
    }

    /** {@code owner}: the class the instruction names (null in a class file too old for class constants). */
    public static void readStatic(Class<?> owner, int site) {
        Recorder r = recorder;
        if (r != null) r.accessStatic(owner, site, false);
    }

    public static void writeStatic(Class<?> owner, int site) {
        Recorder r = recorder;
        if (r != null) r.accessStatic(owner, site, true);
    }


    /** After an array's allocation. */
    public static void allocated(Object array, int site) {
        Recorder r = recorder;
        if (r != null) r.allocated(array, site);
    }

    /** At the start of a class's initialiser. */
    public static void initialising(Class<?> c) {
        Recorder r = recorder;
        if (r != null) r.initialising(c);
    }

    /** At the normal end of a class's initialiser: a release, which every use of its static fields acquires. */
    public static void initialised(Class<?> c) {
        Recorder r = recorder;
        if (r != null) r.initialised(c);
    }

    /** Before a call of {@code start()}: on a thread, a release. */
    public static void starting(Object thread) {
        Recorder r = recorder;
        if (r != null && thread instanceof Thread t) r.starting(t);
    }

    /** After a call of {@code join()} returned: on a thread that has ended, an acquire. */
    public static void joined(Object thread) {
        Recorder r = recorder;
        if (r != null && thread instanceof Thread t) r.joined(t);
    }

    /** Where the JDK hands an object (a task, a future) to another thread: a release on it. */
    public static void handingOver(Object o) {
        Recorder r = recorder;
        if (r != null && o != null) r.handingOver(o);
    }

    /** Where a thread takes over what another handed it: an acquire of the last release on it. */
    public static void takingOver(Object o) {
        Recorder r = recorder;
        if (r != null && o != null) r.takingOver(o);
    }

    /** At the end of a constructor of a class that declares a finalizer: a release, which the finalizer acquires. */
    public static void constructed(Object o) {
        Recorder r = recorder;
        if (r != null) r.constructed(o);
    }

    /** At the start of a finalizer. */
    public static void finalizing(Object o) {
        Recorder r = recorder;
        if (r != null) r.finalizing(o);
    }

    public static void acquired(Object lock) {
        Recorder r = recorder;
        if (r != null && lock != null) r.acquired(lock);
    }

    public static void releasing(Object lock) {
        Recorder r = recorder;
        if (r != null && lock != null) r.releasing(lock);
    }

    public static boolean tryAcquired(Object lock, boolean got) {
        if (got) acquired(lock);
        return got;
    }

    /**
     * {@code System.arraycopy}: a read of the source's elements and a write of the destination's,
     * the bulk accesses vbd fences as a whole. A copy of no elements touches none: libraries copy
     * nothing to and from one shared empty array (Lucene's {@code BytesRef.EMPTY_BYTES}) on every thread.
     */
    public static void arraycopy(Object src, int srcPos, Object dest, int destPos, int length, int readSite, int writeSite) {
        if (length <= 0) {
            System.arraycopy(src, srcPos, dest, destPos, length);
            return;
        }
        read(src, readSite);
        try {
            System.arraycopy(src, srcPos, dest, destPos, length);
        } finally {
            // once done, as every write; also when it failed, which may be after some elements
            write(dest, writeSite);
        }
    }

    /*
     * A call on one of the JDK's atomics ({@link AtomicCalls}), one helper per shape: the atomic, the
     * call's arguments (an atomic array's index first), the operation and the site.
     */

    public static Object atomicGetReference(Object a, int op, int site) {
        return atomic(a, op, 0, null, null, site);
    }

    public static int atomicGetInt(Object a, int op, int site) {
        return (Integer) atomic(a, op, 0, null, null, site);
    }

    public static long atomicGetLong(Object a, int op, int site) {
        return (Long) atomic(a, op, 0, null, null, site);
    }

    public static boolean atomicGetBoolean(Object a, int op, int site) {
        return (Boolean) atomic(a, op, 0, null, null, site);
    }

    public static void atomicSet(Object a, Object v, int op, int site) {
        atomic(a, op, 0, v, null, site);
    }

    public static void atomicSet(Object a, int v, int op, int site) {
        atomic(a, op, 0, v, null, site);
    }

    public static void atomicSet(Object a, long v, int op, int site) {
        atomic(a, op, 0, v, null, site);
    }

    public static void atomicSet(Object a, boolean v, int op, int site) {
        atomic(a, op, 0, v, null, site);
    }

    public static Object atomicUpdate(Object a, Object v, int op, int site) {
        return atomic(a, op, 0, v, null, site);
    }

    public static int atomicUpdate(Object a, int v, int op, int site) {
        return (Integer) atomic(a, op, 0, v, null, site);
    }

    public static long atomicUpdate(Object a, long v, int op, int site) {
        return (Long) atomic(a, op, 0, v, null, site);
    }

    public static boolean atomicUpdate(Object a, boolean v, int op, int site) {
        return (Boolean) atomic(a, op, 0, v, null, site);
    }

    public static boolean atomicCompare(Object a, Object expected, Object v, int op, int site) {
        return (Boolean) atomic(a, op, 0, expected, v, site);
    }

    public static boolean atomicCompare(Object a, int expected, int v, int op, int site) {
        return (Boolean) atomic(a, op, 0, expected, v, site);
    }

    public static boolean atomicCompare(Object a, long expected, long v, int op, int site) {
        return (Boolean) atomic(a, op, 0, expected, v, site);
    }

    public static boolean atomicCompare(Object a, boolean expected, boolean v, int op, int site) {
        return (Boolean) atomic(a, op, 0, expected, v, site);
    }

    public static Object atomicExchange(Object a, Object expected, Object v, int op, int site) {
        return atomic(a, op, 0, expected, v, site);
    }

    public static int atomicExchange(Object a, int expected, int v, int op, int site) {
        return (Integer) atomic(a, op, 0, expected, v, site);
    }

    public static long atomicExchange(Object a, long expected, long v, int op, int site) {
        return (Long) atomic(a, op, 0, expected, v, site);
    }

    public static Object atomicGetReference(Object a, int i, int op, int site) {
        return atomic(a, op, i, null, null, site);
    }

    public static int atomicGetInt(Object a, int i, int op, int site) {
        return (Integer) atomic(a, op, i, null, null, site);
    }

    public static long atomicGetLong(Object a, int i, int op, int site) {
        return (Long) atomic(a, op, i, null, null, site);
    }

    public static void atomicSet(Object a, int i, Object v, int op, int site) {
        atomic(a, op, i, v, null, site);
    }

    public static void atomicSet(Object a, int i, int v, int op, int site) {
        atomic(a, op, i, v, null, site);
    }

    public static void atomicSet(Object a, int i, long v, int op, int site) {
        atomic(a, op, i, v, null, site);
    }

    public static Object atomicUpdate(Object a, int i, Object v, int op, int site) {
        return atomic(a, op, i, v, null, site);
    }

    public static int atomicUpdate(Object a, int i, int v, int op, int site) {
        return (Integer) atomic(a, op, i, v, null, site);
    }

    public static long atomicUpdate(Object a, int i, long v, int op, int site) {
        return (Long) atomic(a, op, i, v, null, site);
    }

    public static boolean atomicCompare(Object a, int i, Object expected, Object v, int op, int site) {
        return (Boolean) atomic(a, op, i, expected, v, site);
    }

    public static boolean atomicCompare(Object a, int i, int expected, int v, int op, int site) {
        return (Boolean) atomic(a, op, i, expected, v, site);
    }

    public static boolean atomicCompare(Object a, int i, long expected, long v, int op, int site) {
        return (Boolean) atomic(a, op, i, expected, v, site);
    }

    public static Object atomicExchange(Object a, int i, Object expected, Object v, int op, int site) {
        return atomic(a, op, i, expected, v, site);
    }

    public static int atomicExchange(Object a, int i, int expected, int v, int op, int site) {
        return (Integer) atomic(a, op, i, expected, v, site);
    }

    public static long atomicExchange(Object a, int i, long expected, long v, int op, int site) {
        return (Long) atomic(a, op, i, expected, v, site);
    }

    private static Object atomic(Object a, int op, int i, Object x, Object y, int site) {
        Recorder r = recorder;
        if (r == null || a == null) return AtomicCalls.apply(a, op, i, x, y);
        return r.atomic(a, op, i, x, y, site);
    }

    public static void storeInt(int[] a, int i, int v, int site) {
        a[i] = v;
        write(a, site);
    }

    public static void storeLong(long[] a, int i, long v, int site) {
        a[i] = v;
        write(a, site);
    }

    public static void storeFloat(float[] a, int i, float v, int site) {
        a[i] = v;
        write(a, site);
    }

    public static void storeDouble(double[] a, int i, double v, int site) {
        a[i] = v;
        write(a, site);
    }

    public static void storeReference(Object[] a, int i, Object v, int site) {
        a[i] = v;
        write(a, site);
    }

    /** {@code bastore}: a byte or a boolean array. */
    public static void storeByte(Object a, int i, int v, int site) {
        if (a instanceof boolean[] z) {
            z[i] = (v & 1) != 0;
        } else {
            ((byte[]) a)[i] = (byte) v;
        }
        write(a, site);
    }

    public static void storeChar(char[] a, int i, int v, int site) {
        a[i] = (char) v;
        write(a, site);
    }

    public static void storeShort(short[] a, int i, int v, int site) {
        a[i] = (short) v;
        write(a, site);
    }
}
