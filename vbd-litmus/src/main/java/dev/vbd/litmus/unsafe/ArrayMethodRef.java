package dev.vbd.litmus.unsafe;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Store buffering on the elements 0 and 1 of an int[] through sun.misc.Unsafe plain putInt and getInt called through bound method references U::putInt and U::getInt (the calls run in lambda proxies, hidden classes). */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor1 ran entirely before actor2")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "actor2 ran entirely before actor1")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both stores ran before both loads")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "both loads passed the other thread's store: not SC")
@State
public class ArrayMethodRef {
    static final UnsafePaths.Access U = UnsafePaths.METHOD_REF;
    static final long X = UnsafePaths.INT_ARRAY_0;
    static final long Y = UnsafePaths.INT_ARRAY_1;

    int[] a = new int[2];

    @Actor
    public void actor1(II_Result r) {
        U.put(a, X);
        r.r1 = U.get(a, Y);
    }

    @Actor
    public void actor2(II_Result r) {
        U.put(a, Y);
        r.r2 = U.get(a, X);
    }
}
