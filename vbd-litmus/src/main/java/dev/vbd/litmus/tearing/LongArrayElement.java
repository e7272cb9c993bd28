package dev.vbd.litmus.tearing;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.J_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Access atomicity of an element of a plain long[]: all 64 bits stored at once, or none. */
@JCStressTest
@Outcome(id = "0", expect = ACCEPTABLE, desc = "reader, writer")
@Outcome(id = "-1", expect = ACCEPTABLE, desc = "writer, reader")
@Outcome(expect = FORBIDDEN, desc = "part of the old value and part of the new: the access tore, not SC")
@State
public class LongArrayElement {
    long[] a = new long[1];

    @Actor
    public void writer() {
        a[0] = -1L;
    }

    @Actor
    public void reader(J_Result r) {
        r.r1 = a[0];
    }
}
