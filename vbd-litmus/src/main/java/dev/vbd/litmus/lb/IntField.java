package dev.vbd.litmus.lb;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Load buffering on two plain int fields. */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "both loads ran before both stores")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor1 ran entirely before actor2")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "actor2 ran entirely before actor1")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "each load saw a store that comes after the other load: not SC")
@State
public class IntField {
    int x, y;

    @Actor
    public void actor1(II_Result r) {
        r.r1 = x;
        y = 1;
    }

    @Actor
    public void actor2(II_Result r) {
        r.r2 = y;
        x = 1;
    }
}
