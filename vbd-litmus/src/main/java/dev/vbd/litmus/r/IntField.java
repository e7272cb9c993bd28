package dev.vbd.litmus.r;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/** The R shape on plain int fields: x = 1; y = 1 against y = 2; load x, with the final y read by the arbiter. */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor2, actor1")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "actor1's x = 1, actor2, actor1's y = 1")
@Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "actor1, actor2")
@Outcome(id = "0, 2", expect = FORBIDDEN,
        desc = "y = 2 came after y = 1, so after x = 1, yet the load of x after y = 2 missed x = 1: not SC")
@State
public class IntField {
    int x, y;

    @Actor
    public void actor1() {
        x = 1;
        y = 1;
    }

    @Actor
    public void actor2(II_Result r) {
        y = 2;
        r.r1 = x;
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = y;
    }
}
