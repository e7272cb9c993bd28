package dev.vbd.litmus.bulk;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * Store buffering on element 0 of two int[]s; each store is Arrays.fill(a, 0, 1, 1) through a
 * MethodHandle from MethodHandles.lookup().findStatic, called with invokeExact.
 */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor1 ran entirely before actor2")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "actor2 ran entirely before actor1")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both stores ran before both loads")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "both loads passed the other thread's store: not SC")
@State
public class FillMethodHandle {
    static final MethodHandle FILL;

    static {
        try {
            FILL = MethodHandles.lookup().findStatic(Arrays.class, "fill", MethodType.methodType(void.class, int[].class, int.class, int.class, int.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    int[] a = new int[1];
    int[] b = new int[1];

    @Actor
    public void actor1(II_Result r) {
        fill(a);
        r.r1 = b[0];
    }

    @Actor
    public void actor2(II_Result r) {
        fill(b);
        r.r2 = a[0];
    }

    // invokeExact declares Throwable; the actors may not
    private static void fill(int[] array) {
        try {
            FILL.invokeExact(array, 0, 1, 1);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }
}
