package dev.vbd.litmus.construction;

import dev.vbd.litmus.ConstructionGuarantee;
import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.IIII_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/** An object with four plain int fields, published through a plain field; the reader loads them last to first. */
@JCStressTest
@ConstructionGuarantee
@Outcome(id = "-1, -1, -1, -1", expect = ACCEPTABLE, desc = "the reader ran first")
@Outcome(id = "1, 2, 3, 4", expect = ACCEPTABLE, desc = "the object, whole")
@Outcome(expect = FORBIDDEN, desc = "saw the object but not all of its constructor's stores")
@State
public class PlainFields {
    static class Holder {
        int a, b, c, d;

        Holder() {
            a = 1;
            b = 2;
            c = 3;
            d = 4;
        }
    }

    Holder shared;

    @Actor
    public void writer() {
        shared = new Holder();
    }

    @Actor
    public void reader(IIII_Result r) {
        Holder h = shared;
        if (h == null) {
            r.r1 = r.r2 = r.r3 = r.r4 = -1;
        } else {
            r.r4 = h.d;
            r.r3 = h.c;
            r.r2 = h.b;
            r.r1 = h.a;
        }
    }
}
