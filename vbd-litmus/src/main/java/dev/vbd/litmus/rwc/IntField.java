package dev.vbd.litmus.rwc;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Read-to-write causality on plain int fields: x then y read by one thread, y written then x read by another. */
@JCStressTest
@Outcome(id = "0, 0, 0", expect = ACCEPTABLE, desc = "readXY, writeYReadX, writeX")
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "readXY, writeX, writeYReadX")
@Outcome(id = "0, 1, 0", expect = ACCEPTABLE, desc = "writeYReadX, readXY, writeX")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "readXY's x load, writeX, writeYReadX, readXY's y load")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "writeX, readXY, writeYReadX")
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "writeYReadX, writeX, readXY")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "writeX, writeYReadX, readXY")
@Outcome(id = "1, 0, 0", expect = FORBIDDEN,
        desc = "readXY saw x = 1 then missed y = 1, so writeYReadX's x load came after x = 1, yet missed it: not SC")
@State
public class IntField {
    int x, y;

    @Actor
    public void writeX() {
        x = 1;
    }

    @Actor
    public void readXY(III_Result r) {
        r.r1 = x;
        r.r2 = y;
    }

    @Actor
    public void writeYReadX(III_Result r) {
        y = 1;
        r.r3 = x;
    }
}
