package dev.vbd.litmus.sb;

import dev.vbd.Relaxed;
import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Store buffering (Dekker) on two plain int fields, with both actors in a relaxed scope. */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor1 ran entirely before actor2")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "actor2 ran entirely before actor1")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both stores ran before both loads")
@Outcome(id = "0, 0", expect = ACCEPTABLE_INTERESTING,
        desc = "allowed in a relaxed scope: each store may wait in a store buffer while the later load runs")
@State
public class RelaxedActors {
    int x, y;

    @Actor
    @Relaxed("litmus: shows the store buffering that SC forbids")
    public void actor1(II_Result r) {
        x = 1;
        r.r1 = y;
    }

    @Actor
    @Relaxed("litmus: shows the store buffering that SC forbids")
    public void actor2(II_Result r) {
        y = 1;
        r.r2 = x;
    }
}
