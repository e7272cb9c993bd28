package dev.vbd.litmus.wrc;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Write-to-read causality on plain int fields: one thread passes on what it read of another's store. */
@JCStressTest
@Outcome(id = "0, 0, 0", expect = ACCEPTABLE, desc = "relay, observer, writeX")
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "relay, writeX, observer")
@Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "observer, writeX, relay")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "writeX, observer, relay")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "writeX, relay, observer")
@Outcome(id = "1, 1, 0", expect = FORBIDDEN,
        desc = "the observer saw the relay's store, made after the relay saw x = 1, but not x = 1: not SC")
@Outcome(id = {"0, 1, 0", "0, 1, 1"}, expect = FORBIDDEN,
        desc = "y = 1 although the relay read x = 0 and stored what it read: out of thin air")
@State
public class IntField {
    int x, y;

    @Actor
    public void writeX() {
        x = 1;
    }

    @Actor
    public void relay(III_Result r) {
        int r1 = x;
        y = r1;
        r.r1 = r1;
    }

    @Actor
    public void observer(III_Result r) {
        r.r2 = y;
        r.r3 = x;
    }
}
