package dev.vbd.litmus.spin;

import org.openjdk.jcstress.annotations.*;

import static org.openjdk.jcstress.annotations.Expect.*;

/** A loop spinning on a plain static flag that another thread sets. */
@JCStressTest(Mode.Termination)
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the loop saw the store")
@Outcome(id = "STALE", expect = FORBIDDEN, desc = "the load was hoisted out of the loop: not SC")
@State
public class StaticFlag {
    static boolean stop;

    public StaticFlag() {
        stop = false;
    }

    @Actor
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
