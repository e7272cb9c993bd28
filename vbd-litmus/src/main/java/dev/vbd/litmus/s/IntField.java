package dev.vbd.litmus.s;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/** The S shape on plain int fields: x = 2; y = 1 against load y; x = 1, with the final x read by the arbiter. */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor1's x = 2, actor2, actor1's y = 1")
@Outcome(id = "0, 2", expect = ACCEPTABLE, desc = "actor2, actor1")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "actor1, actor2")
@Outcome(id = "1, 2", expect = FORBIDDEN,
        desc = "actor2 saw y = 1, so its x = 1 came after x = 2, yet x = 2 is final: not SC")
@State
public class IntField {
    int x, y;

    @Actor
    public void actor1() {
        x = 2;
        y = 1;
    }

    @Actor
    public void actor2(II_Result r) {
        r.r1 = y;
        x = 1;
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = x;
    }
}
