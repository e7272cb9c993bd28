package dev.vbd.litmus.ctor;

import dev.vbd.litmus.ConstructionGuarantee;
import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * A constructor that stores a, leaks this, then stores b (non-final fields); the reader loads b,
 * then a. The store before the leak and the store after it must both be ordered with the leak.
 */
@JCStressTest
@ConstructionGuarantee
@Outcome(id = "-1, -1", expect = ACCEPTABLE, desc = "the reader ran before the leak")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the leak, the reader, then b = 1")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "writer, reader")
@Outcome(id = {"0, 0", "0, 1"}, expect = FORBIDDEN,
        desc = "saw the leaked object without a = 1, stored before the leak: not SC")
@State
public class LeakedThisPlain {
    /** Its constructor publishes the object half-way through. */
    static class Leaky {
        int a, b;

        Leaky(LeakedThisPlain s) {
            a = 1;
            s.leaked = this;
            b = 1;
        }
    }

    Leaky leaked;

    @Actor
    public void writer() {
        new Leaky(this);
    }

    @Actor
    public void reader(II_Result r) {
        Leaky l = leaked;
        if (l == null) {
            r.r1 = -1;
            r.r2 = -1;
        } else {
            r.r2 = l.b;
            r.r1 = l.a;
        }
    }
}
