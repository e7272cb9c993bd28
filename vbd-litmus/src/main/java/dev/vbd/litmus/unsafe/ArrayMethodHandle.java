package dev.vbd.litmus.unsafe;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;
import sun.misc.Unsafe;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * Store buffering on elements 0 and 1 of an int[] (offsets from arrayBaseOffset) through sun.misc.Unsafe plain putInt and
 * getInt reached through MethodHandles from findVirtual, bound to the Unsafe instance and called with
 * invokeExact.
 */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor1 ran entirely before actor2")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "actor2 ran entirely before actor1")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both stores ran before both loads")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "both loads passed the other thread's store: not SC")
@State
public class ArrayMethodHandle {
    static final MethodHandle PUT, GET;
    static final Unsafe U;
    static final long X, Y;

    static {
        try {
            Field f = Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            U = (Unsafe) f.get(null);
            X = U.arrayBaseOffset(int[].class);
            Y = X + U.arrayIndexScale(int[].class);
            MethodHandles.Lookup l = MethodHandles.lookup();
            PUT = l.findVirtual(Unsafe.class, "putInt", MethodType.methodType(void.class, Object.class, long.class, int.class)).bindTo(U);
            GET = l.findVirtual(Unsafe.class, "getInt", MethodType.methodType(int.class, Object.class, long.class)).bindTo(U);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    int[] a = new int[2];

    @Actor
    public void actor1(II_Result r) {
        put(a, X);
        r.r1 = get(a, Y);
    }

    @Actor
    public void actor2(II_Result r) {
        put(a, Y);
        r.r2 = get(a, X);
    }

    // invokeExact declares Throwable; the actors may not
    private static void put(Object o, long offset) {
        try {
            PUT.invokeExact(o, offset, 1);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    private static int get(Object o, long offset) {
        try {
            return (int) GET.invokeExact(o, offset);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }
}
