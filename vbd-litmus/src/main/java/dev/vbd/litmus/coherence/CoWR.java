package dev.vbd.litmus.coherence;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Coherence of a store and a load after it, against a racing store; the arbiter reads the final value. */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "actor2, actor1")
@Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "actor1, actor2")
@Outcome(id = "2, 2", expect = ACCEPTABLE, desc = "actor1's store, actor2, actor1's load")
@Outcome(id = "2, 1", expect = FORBIDDEN,
        desc = "actor1 read x = 2 after its own store, so x = 2 came later, yet x = 1 is final: not SC")
@Outcome(id = {"0, 1", "0, 2"}, expect = FORBIDDEN, desc = "actor1 missed its own store: not SC")
@State
public class CoWR {
    int x;

    @Actor
    public void actor1(II_Result r) {
        x = 1;
        r.r1 = x;
    }

    @Actor
    public void actor2() {
        x = 2;
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = x;
    }
}
