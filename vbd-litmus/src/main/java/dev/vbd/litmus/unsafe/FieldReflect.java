package dev.vbd.litmus.unsafe;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;
import sun.misc.Unsafe;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * Store buffering on two int fields (volatile under vbd) through sun.misc.Unsafe plain putInt and
 * getInt called through reflection (Method.invoke).
 */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor1 ran entirely before actor2")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "actor2 ran entirely before actor1")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both stores ran before both loads")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "both loads passed the other thread's store: not SC")
@State
public class FieldReflect {
    static final Method PUT, GET;
    static final Unsafe U;
    static final long X, Y;

    static {
        try {
            Field f = Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            U = (Unsafe) f.get(null);
            X = U.objectFieldOffset(FieldReflect.class.getDeclaredField("x"));
            Y = U.objectFieldOffset(FieldReflect.class.getDeclaredField("y"));
            PUT = Unsafe.class.getMethod("putInt", Object.class, long.class, int.class);
            GET = Unsafe.class.getMethod("getInt", Object.class, long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    int x, y;

    @Actor
    public void actor1(II_Result r) {
        put(this, X);
        r.r1 = get(this, Y);
    }

    @Actor
    public void actor2(II_Result r) {
        put(this, Y);
        r.r2 = get(this, X);
    }

    // Method.invoke wraps what the callee throws
    private static void put(Object o, long offset) {
        try {
            PUT.invoke(U, o, offset, 1);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static int get(Object o, long offset) {
        try {
            return (int) GET.invoke(U, o, offset);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
