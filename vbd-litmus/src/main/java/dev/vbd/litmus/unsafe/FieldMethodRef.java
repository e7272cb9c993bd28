package dev.vbd.litmus.unsafe;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Store buffering on the fields x and y through sun.misc.Unsafe plain putInt and getInt called through bound method references U::putInt and U::getInt (the calls run in lambda proxies, hidden classes). */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor1 ran entirely before actor2")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "actor2 ran entirely before actor1")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both stores ran before both loads")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "both loads passed the other thread's store: not SC")
@State
public class FieldMethodRef {
    static final UnsafePaths.Access U = UnsafePaths.METHOD_REF;
    static final long X = UnsafePaths.field(FieldMethodRef.class, "x");
    static final long Y = UnsafePaths.field(FieldMethodRef.class, "y");

    int x, y;

    @Actor
    public void actor1(II_Result r) {
        U.put(this, X);
        r.r1 = U.get(this, Y);
    }

    @Actor
    public void actor2(II_Result r) {
        U.put(this, Y);
        r.r2 = U.get(this, X);
    }
}
