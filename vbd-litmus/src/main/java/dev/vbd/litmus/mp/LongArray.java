package dev.vbd.litmus.mp;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Message passing on two elements of a plain long[]: data in element 0, then a flag in element 1. */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the reader ran entirely before the writer")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the reader's flag load, writer, the reader's data load")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the writer ran before the reader")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "saw the flag but not the data stored before it: not SC")
@State
public class LongArray {
    long[] a = new long[2];

    @Actor
    public void writer() {
        a[0] = 1;
        a[1] = 1;
    }

    @Actor
    public void reader(II_Result r) {
        r.r1 = (int) a[1];
        r.r2 = (int) a[0];
    }
}
