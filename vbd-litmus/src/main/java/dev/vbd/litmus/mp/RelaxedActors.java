package dev.vbd.litmus.mp;

import dev.vbd.Relaxed;
import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Message passing on two plain int fields, with both actors in a relaxed scope. */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the reader ran entirely before the writer")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the reader's flag load, writer, the reader's data load")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the writer ran before the reader")
@Outcome(id = "1, 0", expect = ACCEPTABLE_INTERESTING,
        desc = "allowed in a relaxed scope: plain stores, or plain loads, may be reordered by the JIT or the CPU")
@State
public class RelaxedActors {
    int data, flag;

    @Actor
    @Relaxed("litmus: shows the reordering that SC forbids")
    public void writer() {
        data = 1;
        flag = 1;
    }

    @Actor
    @Relaxed("litmus: shows the reordering that SC forbids")
    public void reader(II_Result r) {
        r.r1 = flag;
        r.r2 = data;
    }
}
