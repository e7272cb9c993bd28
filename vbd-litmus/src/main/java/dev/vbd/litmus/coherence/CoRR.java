package dev.vbd.litmus.coherence;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Coherence of two loads in a row from one plain int field. */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "reader, writer")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the reader's first load, writer, the reader's second load")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "writer, reader")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "the second load saw an older value than the first: not SC")
@State
public class CoRR {
    int x;

    @Actor
    public void writer() {
        x = 1;
    }

    @Actor
    public void reader(II_Result r) {
        r.r1 = x;
        r.r2 = x;
    }
}
