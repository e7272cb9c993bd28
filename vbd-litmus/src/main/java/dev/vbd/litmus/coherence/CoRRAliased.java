package dev.vbd.litmus.coherence;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Coherence of three loads in a row from one plain int field, through two references to the same object. */
@JCStressTest
@Outcome(id = "0, 0, 0", expect = ACCEPTABLE, desc = "reader, writer")
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "the loads through p and q, writer, the last load through p")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "the reader's first load through p, writer, its other loads")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "writer, reader")
@Outcome(id = {"1, 0, 0", "1, 0, 1", "0, 1, 0", "1, 1, 0"}, expect = FORBIDDEN,
        desc = "a later load saw an older value than an earlier one, through an alias of the same object: not SC")
@State
public class CoRRAliased {
    /** The shared object; its field is deliberately neither final nor volatile. */
    static class Box {
        int x;
    }

    // One object behind two references: the compiler cannot prove that they alias, so it may reuse the
    // first load through p for the third, across the load through q that saw the newer value.
    Box p, q;

    public CoRRAliased() {
        p = new Box();
        q = p;
    }

    @Actor
    public void writer() {
        p.x = 1;
    }

    @Actor
    public void reader(III_Result r) {
        Box a = p, b = q;
        r.r1 = a.x;
        r.r2 = b.x;
        r.r3 = a.x;
    }
}
