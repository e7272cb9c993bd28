package dev.vbd.litmus.publication;

import dev.vbd.litmus.ConstructionGuarantee;
import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Publication of a new object with non-final fields through a plain field. */
@JCStressTest
@ConstructionGuarantee
@Outcome(id = "-1, -1", expect = ACCEPTABLE, desc = "reader, writer: no object yet")
@Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "writer, reader")
@Outcome(id = {"0, 0", "1, 0", "0, 2"}, expect = FORBIDDEN,
        desc = "saw the object but not all of its constructor's stores: not SC")
@State
public class NonFinalFields {
    /** The published object; its fields are deliberately neither final nor volatile. */
    static class Holder {
        int a, b;

        Holder(int a, int b) {
            this.a = a;
            this.b = b;
        }
    }

    Holder shared;

    @Actor
    public void writer() {
        shared = new Holder(1, 2);
    }

    @Actor
    public void reader(II_Result r) {
        Holder h = shared;
        if (h == null) {
            r.r1 = -1;
            r.r2 = -1;
        } else {
            r.r1 = h.a;
            r.r2 = h.b;
        }
    }
}
