import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.function.BiConsumer;

/**
 * Bulk operations and Unsafe reached without a direct call site: method references, method
 * handles, reflection. Under vbd they reach fenced or volatile twins; what they do, return and
 * throw (stack traces included) must be exactly what stock Java does.
 */
public class Main {
    interface Copy { void copy(Object s, int a, Object d, int b, int n); }
    interface Fill { void fill(int[] a, int from, int to, int v); }
    interface PutInt { void put(Object o, long offset, int v); }

    int x;

    public static void main(String[] args) throws Throwable {
        int[] a = {1, 2, 3, 4};
        int[] b = new int[4];
        Copy c = System::arraycopy;
        c.copy(a, 0, b, 0, 2);
        Fill f = Arrays::fill;
        f.fill(b, 2, 3, 9);
        System.out.println("method references: " + Arrays.toString(b));

        MethodHandle copy = MethodHandles.lookup().findStatic(System.class, "arraycopy",
                MethodType.methodType(void.class, Object.class, int.class, Object.class, int.class, int.class));
        copy.invokeExact((Object) a, 3, (Object) b, 3, 1);
        System.out.println("method handle: " + Arrays.toString(b) + " " + copy.type());
        try {
            copy.invokeExact((Object) a, 3, (Object) b, 0, 5);
        } catch (ArrayIndexOutOfBoundsException e) {
            print("method handle, bad range", e);
        }
        try {
            copy.invokeExact((Object) new Object[]{"s", 1}, 0, (Object) new String[2], 0, 2);
        } catch (ArrayStoreException e) {
            print("method handle, wrong element type", e);
        }
        MethodHandle fill = MethodHandles.publicLookup().findStatic(Arrays.class, "fill",
                MethodType.methodType(void.class, int[].class, int.class));
        fill.invokeExact(b, 7);
        System.out.println("fill through a method handle: " + Arrays.toString(b));

        Method m = System.class.getMethod("arraycopy", Object.class, int.class, Object.class, int.class, int.class);
        for (int i = 0; i < 20; i++) m.invoke(null, a, i % 4, b, i % 4, 1); // past reflection's inflation threshold
        System.out.println("reflection: " + Arrays.toString(b) + " " + m);
        try {
            m.invoke(null, a, 5, b, 0, 1);
        } catch (InvocationTargetException e) {
            print("reflection, bad range", e.getCause());
        }
        try {
            m.invoke(null, null, 0, b, 0, 1);
        } catch (InvocationTargetException e) {
            print("reflection, null source", e.getCause());
        }

        Field uf = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        uf.setAccessible(true);
        sun.misc.Unsafe u = (sun.misc.Unsafe) uf.get(null);
        long offset = u.objectFieldOffset(Main.class.getDeclaredField("x"));
        Main o = new Main();
        PutInt put = u::putInt;
        put.put(o, offset, 5);
        MethodHandle get = MethodHandles.lookup().findVirtual(sun.misc.Unsafe.class, "getInt",
                MethodType.methodType(int.class, Object.class, long.class));
        System.out.println("unsafe through a method reference and a method handle: " + (int) get.invokeExact(u, (Object) o, offset));
        Method putInt = sun.misc.Unsafe.class.getMethod("putInt", Object.class, long.class, int.class);
        putInt.invoke(u, o, offset, 6);
        System.out.println("unsafe through reflection: " + o.x);
        BiConsumer<int[], Integer> clone = (arr, n) -> System.out.println("clone: " + Arrays.toString(arr.clone()) + " " + n);
        clone.accept(a, a.length);
    }

    private static void print(String what, Throwable e) {
        // the frame that threw: reflection's own frames below it are the JDK's business
        System.out.println(what + ": " + e + "\n    at " + e.getStackTrace()[0]);
    }
}
