package dev.vbd.litmus.layout;

import dev.vbd.litmus.SameInEveryFieldMode;
import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * Store buffering on two neighbouring elements of an array a private field holds: the shape of
 * per-thread slots, which a layout's stride rule spreads ({@code stride
 * dev.vbd.litmus.layout.StridedSlots#slots 16}). The stride changes where each element lies, not
 * the accesses, so the run with it must show no more than the run without.
 */
@JCStressTest
@Outcome(id = {"1, 1", "0, 1", "1, 0"}, expect = ACCEPTABLE, desc = "some interleaving")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "each actor's load passed its own store: not SC")
@State
@SameInEveryFieldMode
public class StridedSlots {
    private final long[] slots = new long[2];

    @Actor
    public void actor1(JJ_Result r) {
        slots[0] = 1;
        r.r1 = slots[1];
    }

    @Actor
    public void actor2(JJ_Result r) {
        slots[1] = 1;
        r.r2 = slots[0];
    }
}
