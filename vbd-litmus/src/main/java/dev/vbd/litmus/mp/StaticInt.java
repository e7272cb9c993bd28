package dev.vbd.litmus.mp;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Message passing on two plain static int fields: data, then a flag. */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the reader ran entirely before the writer")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the reader's flag load, writer, the reader's data load")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the writer ran before the reader")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "saw the flag but not the data stored before it: not SC")
@State
public class StaticInt {
    // jcstress never resets statics between samples, so a sample cannot store a constant: it
    // would already be there from the previous one. Instead each actor numbers its own calls (the
    // k-th call of each actor belongs to the same sample, in every phase of a run) and the writer
    // stores k; a load sees this sample's store iff it finds k or later, since each field only
    // grows. Comparing by difference keeps that true across int overflow.
    static int data, flag;
    static int writes, reads;

    @Actor
    public void writer() {
        int k = ++writes;
        data = k;
        flag = k;
    }

    @Actor
    public void reader(II_Result r) {
        int k = ++reads;
        r.r1 = flag - k >= 0 ? 1 : 0;
        r.r2 = data - k >= 0 ? 1 : 0;
    }
}
