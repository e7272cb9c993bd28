package dev.vbd.litmus.construction;

import dev.vbd.litmus.ConstructionGuarantee;
import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * A constructor that stores two plain fields, then a final one: safe construction adds no fence
 * of its own here and relies on the JVM's, which every tier places at the exit of a constructor
 * that writes a final field and which orders the plain stores before it too.
 */
@JCStressTest
@ConstructionGuarantee
@Outcome(id = "-1, -1, -1", expect = ACCEPTABLE, desc = "the reader ran first")
@Outcome(id = "1, 2, 3", expect = ACCEPTABLE, desc = "the object, whole")
@Outcome(expect = FORBIDDEN, desc = "saw the object without a plain store its constructor made")
@State
public class FinalAndPlain {
    static class Holder {
        final int a;
        int b, c;

        Holder() {
            b = 2;
            c = 3;
            a = 1;
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
            r.r3 = h.c;
            r.r2 = h.b;
            r.r1 = h.a;
        }
    }
}
