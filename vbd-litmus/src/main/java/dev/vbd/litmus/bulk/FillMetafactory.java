package dev.vbd.litmus.bulk;

import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * Store buffering on element 0 of two int[]s; each store is Arrays.fill(a, 0, 1, 1) through a
 * functional interface that LambdaMetafactory, the bootstrap behind invokedynamic lambdas, binds to a
 * MethodHandle the program looked up itself.
 */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor1 ran entirely before actor2")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "actor2 ran entirely before actor1")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both stores ran before both loads")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "both loads passed the other thread's store: not SC")
@State
public class FillMetafactory {
    interface Fill {
        void fill(int[] a, int from, int to, int value);
    }

    static final Fill FILL;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            MethodType erased = MethodType.methodType(void.class, int[].class, int.class, int.class, int.class);
            FILL = (Fill) LambdaMetafactory.metafactory(l, "fill", MethodType.methodType(Fill.class), erased,
                    l.findStatic(Arrays.class, "fill", erased), erased).getTarget().invokeExact();
        } catch (Throwable t) {
            throw new ExceptionInInitializerError(t);
        }
    }

    int[] a = new int[1];
    int[] b = new int[1];

    @Actor
    public void actor1(II_Result r) {
        FILL.fill(a, 0, 1, 1);
        r.r1 = b[0];
    }

    @Actor
    public void actor2(II_Result r) {
        FILL.fill(b, 0, 1, 1);
        r.r2 = a[0];
    }
}
