package dev.vbd.litmus.iriw;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.IIII_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Independent reads of independent writes on plain int fields: two readers, in opposite orders. */
@JCStressTest
@Outcome(id = "0, 0, 0, 0", expect = ACCEPTABLE, desc = "readXY, readYX, writeX, writeY")
@Outcome(id = "0, 0, 0, 1", expect = ACCEPTABLE, desc = "readXY, writeX, readYX, writeY")
@Outcome(id = "0, 0, 1, 0", expect = ACCEPTABLE, desc = "readXY, writeY, readYX, writeX")
@Outcome(id = "0, 0, 1, 1", expect = ACCEPTABLE, desc = "readXY, writeX, writeY, readYX")
@Outcome(id = "0, 1, 0, 0", expect = ACCEPTABLE, desc = "readYX, writeY, readXY, writeX")
@Outcome(id = "0, 1, 0, 1", expect = ACCEPTABLE, desc = "readXY's x load, writeX, readYX, writeY, readXY's y load")
@Outcome(id = "0, 1, 1, 0", expect = ACCEPTABLE, desc = "writeY, readXY, readYX, writeX")
@Outcome(id = "0, 1, 1, 1", expect = ACCEPTABLE, desc = "writeY, readXY, writeX, readYX")
@Outcome(id = "1, 0, 0, 0", expect = ACCEPTABLE, desc = "readYX, writeX, readXY, writeY")
@Outcome(id = "1, 0, 0, 1", expect = ACCEPTABLE, desc = "writeX, readXY, readYX, writeY")
@Outcome(id = "1, 0, 1, 1", expect = ACCEPTABLE, desc = "writeX, readXY, writeY, readYX")
@Outcome(id = "1, 1, 0, 0", expect = ACCEPTABLE, desc = "readYX, writeX, writeY, readXY")
@Outcome(id = "1, 1, 0, 1", expect = ACCEPTABLE, desc = "writeX, readYX, writeY, readXY")
@Outcome(id = "1, 1, 1, 0", expect = ACCEPTABLE, desc = "writeY, readYX, writeX, readXY")
@Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "writeX, writeY, readXY, readYX")
@Outcome(id = "1, 0, 1, 0", expect = FORBIDDEN,
        desc = "readXY saw x = 1 before y = 1, readYX saw y = 1 before x = 1: no single order of the stores, not SC")
@State
public class IntField {
    int x, y;

    @Actor
    public void writeX() {
        x = 1;
    }

    @Actor
    public void writeY() {
        y = 1;
    }

    @Actor
    public void readXY(IIII_Result r) {
        r.r1 = x;
        r.r2 = y;
    }

    @Actor
    public void readYX(IIII_Result r) {
        r.r3 = y;
        r.r4 = x;
    }
}
