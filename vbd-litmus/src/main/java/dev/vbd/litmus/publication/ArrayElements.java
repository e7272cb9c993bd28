package dev.vbd.litmus.publication;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Publication of a new, initialized int[] through a plain field. */
@JCStressTest
@Outcome(id = "-1, -1, -1", expect = ACCEPTABLE, desc = "reader, writer: no array yet")
@Outcome(id = "1, 2, 3", expect = ACCEPTABLE, desc = "writer, reader")
@Outcome(id = {"0, 0, 0", "1, 0, 0", "0, 2, 0", "0, 0, 3", "1, 2, 0", "1, 0, 3", "0, 2, 3"}, expect = FORBIDDEN,
        desc = "saw the array but not all of the element stores made before it was published: not SC")
@State
public class ArrayElements {
    int[] shared;

    @Actor
    public void writer() {
        shared = new int[] {1, 2, 3};
    }

    @Actor
    public void reader(III_Result r) {
        int[] a = shared;
        if (a == null) {
            r.r1 = -1;
            r.r2 = -1;
            r.r3 = -1;
        } else {
            r.r1 = a[0];
            r.r2 = a[1];
            r.r3 = a[2];
        }
    }
}
