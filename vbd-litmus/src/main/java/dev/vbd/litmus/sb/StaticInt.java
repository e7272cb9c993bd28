package dev.vbd.litmus.sb;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Store buffering (Dekker) on two plain static int fields. */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor1 ran entirely before actor2")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "actor2 ran entirely before actor1")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both stores ran before both loads")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "both loads passed the other thread's store: not SC")
@State
public class StaticInt {
    // jcstress never resets statics between samples, so a sample cannot store a constant: it
    // would already be there from the previous one. Instead each actor numbers its own calls (the
    // k-th call of each actor belongs to the same sample, in every phase of a run) and stores k;
    // a load sees this sample's store iff it finds k or later, since each field only grows.
    // Comparing by difference keeps that true across int overflow.
    static int x, y;
    static int calls1, calls2;

    @Actor
    public void actor1(II_Result r) {
        int k = ++calls1;
        x = k;
        r.r1 = y - k >= 0 ? 1 : 0;
    }

    @Actor
    public void actor2(II_Result r) {
        int k = ++calls2;
        y = k;
        r.r2 = x - k >= 0 ? 1 : 0;
    }
}
