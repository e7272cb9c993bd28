package dev.vbd.litmus.publication;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * An int[] filled in a loop while only a local holds it, then published through a plain field.
 * The fills touch an array no other thread can see yet, so vbd leaves them unfenced; the
 * publishing store must still order them before it.
 */
@JCStressTest
@Outcome(id = "-1, -1, -1", expect = ACCEPTABLE, desc = "reader, writer: no array yet")
@Outcome(id = "1, 2, 3", expect = ACCEPTABLE, desc = "writer, reader")
@Outcome(id = {"0, 0, 0", "1, 0, 0", "0, 2, 0", "0, 0, 3", "1, 2, 0", "1, 0, 3", "0, 2, 3"}, expect = FORBIDDEN,
        desc = "saw the array but not all of the element stores made before it was published: not SC")
@State
public class LocalArrayFilled {
    int[] shared;

    @Actor
    public void writer() {
        int[] a = new int[3];
        for (int i = 0; i < a.length; i++) {
            a[i] = i + 1;
        }
        shared = a;
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
