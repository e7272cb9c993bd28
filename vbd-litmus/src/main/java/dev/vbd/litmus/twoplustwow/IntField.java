package dev.vbd.litmus.twoplustwow;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/** 2+2W on plain int fields: two threads store to x and y in opposite orders; the arbiter reads the final values. */
@JCStressTest
@Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "actor2, actor1")
@Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "actor1, actor2")
@Outcome(id = "2, 2", expect = ACCEPTABLE, desc = "actor1's x = 1, actor2, actor1's y = 2")
@Outcome(id = "1, 1", expect = FORBIDDEN,
        desc = "each thread's first store came last, after the other's second store: a cycle, not SC")
@State
public class IntField {
    int x, y;

    @Actor
    public void actor1() {
        x = 1;
        y = 2;
    }

    @Actor
    public void actor2() {
        y = 1;
        x = 2;
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = x;
        r.r2 = y;
    }
}
