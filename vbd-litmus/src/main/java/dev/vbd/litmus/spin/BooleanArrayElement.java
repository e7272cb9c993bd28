package dev.vbd.litmus.spin;

import org.openjdk.jcstress.annotations.*;

import static org.openjdk.jcstress.annotations.Expect.*;

/** A loop spinning on an element of a plain boolean[] that another thread sets. */
@JCStressTest(Mode.Termination)
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the loop saw the store")
@Outcome(id = "STALE", expect = FORBIDDEN, desc = "the load was hoisted out of the loop: not SC")
@State
public class BooleanArrayElement {
    boolean[] stop = new boolean[1];

    @Actor
    public void spin() {
        while (!stop[0]) {
            // empty
        }
    }

    @Signal
    public void signal() {
        stop[0] = true;
    }
}
