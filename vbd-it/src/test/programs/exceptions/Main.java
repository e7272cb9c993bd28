import java.util.*;

/**
 * Exceptions from heap accesses: type, message (the JDK's helpful NullPointerException text
 * included), which one wins when two could occur, and where they are thrown: the top frame
 * must be the user's method, never vbd's runtime.
 */
public class Main {
    interface Action { Object run() throws Throwable; }

    static final List<String> trace = new ArrayList<>();

    static void attempt(String label, Action a) {
        trace.clear();
        try {
            Object r = a.run();
            System.out.println(label + ": no exception, result " + r + " trace " + trace);
        } catch (Throwable t) {
            StackTraceElement top = t.getStackTrace().length == 0 ? null : t.getStackTrace()[0];
            long vbdFrames = Arrays.stream(t.getStackTrace())
                    .filter(f -> f.getClassName().startsWith("dev.vbd") || f.getClassName().contains("Vbd")).count();
            System.out.println(label + ": " + t.getClass().getName() + ": " + t.getMessage()
                    + " | top " + (top == null ? "none" : top.getClassName() + "." + top.getMethodName() + ":" + top.getLineNumber())
                    + " | vbd frames " + vbdFrames + " | trace " + trace);
        }
    }

    static int idx(int i) { trace.add("index"); return i; }
    static int val(int v) { trace.add("value"); return v; }
    static Object obj(Object o) { trace.add("value"); return o; }
    static int[] arr(int[] a) { trace.add("array"); return a; }

    static class Node { int value; Node next; String name; }

    static int readField(Node n) { return n.value; }
    static void writeField(Node n) { n.value = 1; }
    static int readChain(Node n) { return n.next.value; }
    static int length(int[] a) { return a.length; }
    static int loadInt(int[] a, int i) { return a[i]; }
    static void storeInt(int[] a, int i, int v) { a[i] = v; }
    static boolean loadBoolean(boolean[] a, int i) { return a[i]; }
    static void storeBoolean(boolean[] a, int i) { a[i] = true; }
    static byte loadByte(byte[] a, int i) { return a[i]; }
    static void storeByte(byte[] a, int i) { a[i] = 1; }
    static char loadChar(char[] a, int i) { return a[i]; }
    static void storeChar(char[] a, int i) { a[i] = 'c'; }
    static short loadShort(short[] a, int i) { return a[i]; }
    static void storeShort(short[] a, int i) { a[i] = 2; }
    static long loadLong(long[] a, int i) { return a[i]; }
    static void storeLong(long[] a, int i) { a[i] = 3L; }
    static float loadFloat(float[] a, int i) { return a[i]; }
    static void storeFloat(float[] a, int i) { a[i] = 4f; }
    static double loadDouble(double[] a, int i) { return a[i]; }
    static void storeDouble(double[] a, int i) { a[i] = 5d; }
    static Object loadRef(Object[] a, int i) { return a[i]; }
    static void storeRef(Object[] a, int i, Object v) { a[i] = v; }
    static int load2d(int[][] a, int i, int j) { return a[i][j]; }
    static void store2d(int[][] a, int i, int j) { a[i][j] = 9; }
    static void storeOrdered(int[] a) { a[idx(5)] = val(7); }
    static void storeOrderedRef(Object[] a) { a[idx(5)] = obj(1); }
    static void storeDivide(int[] a, int zero) { a[idx(0)] = val(1) / zero; }
    static void compound(int[] a) { arr(a)[idx(3)] += val(1); }
    static int divide(int a, int b) { return a / b; }
    static int remainder(int a, int b) { return a % b; }
    static long divideLong(long a, long b) { return a / b; }
    static String cast(Object o) { return (String) o; }
    static Integer[] castArray(Object o) { return (Integer[]) o; }
    static int unbox(Integer i) { return i; }
    static void syncNull(Object o) { synchronized (o) { trace.add("inside"); } }
    static void throwNull() throws Exception { throw null; }
    static int[] negative(int n) { return new int[n]; }
    static int[][] negative2d(int n) { return new int[2][n]; }
    static int callOnNull(String s) { return s.length(); }

    public static void main(String[] args) {
        int[] ints = new int[3];
        int[] nullInts = null;
        Node node = new Node();

        attempt("read field of null", () -> readField(null));
        attempt("write field of null", () -> { writeField(null); return null; });
        attempt("read through null field", () -> readChain(node));
        attempt("length of null array", () -> length(null));
        attempt("load from null int[]", () -> loadInt(null, 0));
        attempt("store to null int[]", () -> { storeInt(null, 0, 1); return null; });
        attempt("load int[] index 3", () -> loadInt(ints, 3));
        attempt("load int[] index -1", () -> loadInt(ints, -1));
        attempt("store int[] index 3", () -> { storeInt(ints, 3, 1); return null; });
        attempt("load null array, bad index", () -> loadInt(nullInts, 99));
        attempt("store null array, bad index", () -> { storeInt(nullInts, -5, 1); return null; });

        attempt("boolean load", () -> loadBoolean(new boolean[1], 1));
        attempt("boolean store", () -> { storeBoolean(new boolean[0], 0); return null; });
        attempt("boolean null", () -> { storeBoolean(null, 0); return null; });
        attempt("byte load", () -> loadByte(new byte[2], 2));
        attempt("byte store", () -> { storeByte(new byte[2], -2); return null; });
        attempt("byte null", () -> loadByte(null, 0));
        attempt("char load", () -> loadChar(new char[1], 5));
        attempt("char store", () -> { storeChar(null, 5); return null; });
        attempt("short load", () -> loadShort(null, 0));
        attempt("short store", () -> { storeShort(new short[4], 4); return null; });
        attempt("long load", () -> loadLong(new long[1], 1));
        attempt("long store", () -> { storeLong(null, 1); return null; });
        attempt("float load", () -> loadFloat(null, 1));
        attempt("float store", () -> { storeFloat(new float[1], Integer.MIN_VALUE); return null; });
        attempt("double load", () -> loadDouble(new double[3], Integer.MAX_VALUE));
        attempt("double store", () -> { storeDouble(null, 0); return null; });
        attempt("ref load", () -> loadRef(new Object[0], 0));
        attempt("ref load null", () -> loadRef(null, 0));
        attempt("ref store wrong type", () -> { storeRef(new String[2], 0, 42); return null; });
        attempt("ref store null value ok", () -> { Object[] a = new String[2]; storeRef(a, 1, null); return Arrays.toString(a); });
        attempt("ref store wrong type, bad index", () -> { storeRef(new String[2], 7, 42); return null; });
        attempt("ref store wrong type, null array", () -> { storeRef(null, 7, 42); return null; });
        attempt("ref store subtype ok", () -> { Number[] a = new Integer[1]; storeRef(a, 0, 5); return a[0]; });
        attempt("2d load null row", () -> load2d(new int[2][], 1, 0));
        attempt("2d store bad row", () -> { store2d(new int[2][2], 2, 0); return null; });
        attempt("2d store bad column", () -> { store2d(new int[2][2], 1, 2); return null; });
        attempt("store order, null array", () -> { storeOrdered(null); return null; });
        attempt("store order, bad index", () -> { storeOrdered(ints); return null; });
        attempt("store order, ref null array", () -> { storeOrderedRef(null); return null; });
        attempt("store order, ref wrong type", () -> { storeOrderedRef(new String[9]); return null; });
        attempt("rhs throws before null store", () -> { storeDivide(null, 0); return null; });
        attempt("compound on null", () -> { compound(null); return null; });
        attempt("compound bad index", () -> { compound(new int[2]); return null; });
        attempt("compound ok", () -> { int[] a = new int[4]; compound(a); return Arrays.toString(a); });

        attempt("int divide by zero", () -> divide(1, 0));
        attempt("int remainder by zero", () -> remainder(1, 0));
        attempt("long divide by zero", () -> divideLong(1, 0));
        attempt("MIN_VALUE / -1", () -> divide(Integer.MIN_VALUE, -1));
        attempt("addExact", () -> Math.addExact(Integer.MAX_VALUE, 1));
        attempt("double divide by zero", () -> 1.0 / 0);
        attempt("class cast", () -> cast(42));
        attempt("class cast array", () -> castArray(new Number[1]));
        attempt("class cast null ok", () -> cast(null));
        attempt("unbox null", () -> unbox(null));
        attempt("synchronized null", () -> { syncNull(null); return null; });
        attempt("throw null", () -> { throwNull(); return null; });
        attempt("negative array size", () -> negative(-1));
        attempt("negative 2d size", () -> negative2d(-3));
        attempt("call on null", () -> callOnNull(null));

        int[] src = {1, 2, 3};
        attempt("arraycopy null src", () -> { System.arraycopy(null, 0, ints, 0, 1); return null; });
        attempt("arraycopy range", () -> { System.arraycopy(src, 1, ints, 0, 3); return null; });
        attempt("arraycopy negative", () -> { System.arraycopy(src, -1, ints, 0, 1); return null; });
        attempt("arraycopy type mismatch", () -> { System.arraycopy(src, 0, new long[3], 0, 1); return null; });
        attempt("arraycopy not array", () -> { System.arraycopy("x", 0, ints, 0, 1); return null; });
        attempt("arraycopy element store", () -> {
            Object[] from = {"a", "b", 3, "d"};
            String[] to = new String[4];
            try {
                System.arraycopy(from, 0, to, 0, 4);
            } finally {
                trace.add(Arrays.toString(to));
            }
            return null;
        });
        attempt("Arrays.fill range", () -> { Arrays.fill(ints, 1, 5, 7); return null; });
        attempt("Arrays.fill store", () -> { Arrays.fill(new Integer[2], "s"); return null; });
        attempt("Arrays.copyOf negative", () -> Arrays.copyOf(src, -1));
        attempt("Arrays.copyOfRange", () -> Arrays.copyOfRange(src, 2, 1));
        attempt("clone null", () -> { int[] a = null; return a.clone(); });
        attempt("list index", () -> new ArrayList<>(List.of(1)).get(3));
        attempt("iterator", () -> { List<Integer> l = new ArrayList<>(List.of(1, 2, 3)); for (Integer i : l) l.remove(i); return l; });
        attempt("stack overflow", () -> recurse(0));
        attempt("array value after failed store", () -> {
            int[] a = {1, 2};
            try { storeInt(a, 2, 5); } catch (ArrayIndexOutOfBoundsException e) { trace.add("caught"); }
            return Arrays.toString(a);
        });
        System.out.println("done, ints " + Arrays.toString(ints));
    }

    static int recurse(int n) { return recurse(n + 1) + 1; }
}
