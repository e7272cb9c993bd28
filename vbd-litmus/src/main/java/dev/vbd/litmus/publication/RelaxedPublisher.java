package dev.vbd.litmus.publication;

import dev.vbd.Relaxed;
import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * A new object with non-final fields, built by sequentially consistent code and published by a
 * plain store in a relaxed method: the constructor's stores must still come before the store that
 * publishes the object, whatever kind of store that is.
 */
@JCStressTest
@Outcome(id = "-1, -1", expect = ACCEPTABLE, desc = "reader, writer: no object yet")
@Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "writer, reader")
@Outcome(id = {"0, 0", "1, 0", "0, 2"}, expect = FORBIDDEN,
        desc = "saw the object but not all of its constructor's stores: not SC")
@State
public class RelaxedPublisher {
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
        publish(new Holder(1, 2));
    }

    @Relaxed("litmus: the publishing store is plain; the constructor before it is not relaxed")
    private void publish(Holder h) {
        shared = h;
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
