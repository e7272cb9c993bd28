package dev.vbd.litmus.unsafe;

import java.lang.reflect.Field;
import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;
import sun.misc.Unsafe;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * Store buffering on elements 0 and 1 of an int[] (offsets from arrayBaseOffset) through sun.misc.Unsafe plain putInt and
 * getInt reached through the bound method references U::putInt and U::getInt, so the calls happen in
 * lambda proxies (hidden classes), not at call sites of the test.
 */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor1 ran entirely before actor2")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "actor2 ran entirely before actor1")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both stores ran before both loads")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "both loads passed the other thread's store: not SC")
@State
public class ArrayMethodRef {
    interface PutInt {
        void putInt(Object o, long offset, int value);
    }

    interface GetInt {
        int getInt(Object o, long offset);
    }

    static final PutInt PUT;
    static final GetInt GET;
    static final Unsafe U;
    static final long X, Y;

    static {
        try {
            Field f = Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            U = (Unsafe) f.get(null);
            X = U.arrayBaseOffset(int[].class);
            Y = X + U.arrayIndexScale(int[].class);
            PUT = U::putInt;
            GET = U::getInt;
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    int[] a = new int[2];

    @Actor
    public void actor1(II_Result r) {
        PUT.putInt(a, X, 1);
        r.r1 = GET.getInt(a, Y);
    }

    @Actor
    public void actor2(II_Result r) {
        PUT.putInt(a, Y, 1);
        r.r2 = GET.getInt(a, X);
    }
}
