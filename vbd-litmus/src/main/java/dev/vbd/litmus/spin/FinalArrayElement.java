package dev.vbd.litmus.spin;

import org.openjdk.jcstress.annotations.*;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * A loop spinning on an element of an array held in a final field, which vbd leaves plain: the
 * acquire fence after the element load is all that keeps the load in the loop. (In
 * {@link BooleanArrayElement} the field holding the array is made volatile, and loading it each trip
 * keeps the element load in the loop as well.)
 */
@JCStressTest(Mode.Termination)
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the loop saw the store")
@Outcome(id = "STALE", expect = FORBIDDEN, desc = "the load was hoisted out of the loop: not SC")
@State
public class FinalArrayElement {
    final int[] stop = new int[1];

    @Actor
    public void spin() {
        while (stop[0] == 0) {
            // empty
        }
    }

    @Signal
    public void signal() {
        stop[0] = 1;
    }
}
