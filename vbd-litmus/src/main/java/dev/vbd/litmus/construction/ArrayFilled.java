package dev.vbd.litmus.construction;

import dev.vbd.litmus.ConstructionGuarantee;
import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/** A constructor allocates an array, fills it, and keeps it in a plain field; the object is published through a plain field. */
@JCStressTest
@ConstructionGuarantee
@Outcome(id = "-1, -1, -1", expect = ACCEPTABLE, desc = "the reader ran first")
@Outcome(id = "1, 2, 3", expect = ACCEPTABLE, desc = "the object and its array, whole")
@Outcome(expect = FORBIDDEN, desc = "saw the object but not its array as the constructor filled it")
@State
public class ArrayFilled {
    static class Holder {
        int[] values;

        Holder() {
            int[] v = new int[3];
            v[0] = 1;
            v[1] = 2;
            v[2] = 3;
            values = v;
        }
    }

    Holder shared;

    @Actor
    public void writer() {
        shared = new Holder();
    }

    @Actor
    public void reader(III_Result r) {
        Holder h = shared;
        if (h == null) {
            r.r1 = r.r2 = r.r3 = -1;
        } else {
            int[] v = h.values;
            if (v == null) {
                r.r1 = r.r2 = r.r3 = 0;
            } else {
                r.r3 = v[2];
                r.r2 = v[1];
                r.r1 = v[0];
            }
        }
    }
}
