package dev.vbd.litmus.spin;

import dev.vbd.Relaxed;
import org.openjdk.jcstress.annotations.*;

import static org.openjdk.jcstress.annotations.Expect.*;

/** A loop in a relaxed scope spinning on a plain instance flag that another thread sets. */
@JCStressTest(Mode.Termination)
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the loop saw the store")
@Outcome(id = "STALE", expect = ACCEPTABLE_INTERESTING,
        desc = "allowed in a relaxed scope: the JIT may hoist the plain load out of the loop")
@State
public class RelaxedSpin {
    boolean stop;

    @Actor
    @Relaxed("litmus: shows the hoisted load that SC forbids")
    public void spin() {
        while (!stop) {
            // empty
        }
    }

    @Signal
    public void signal() {
        stop = true;
    }
}
