package dev.vbd.litmus.ctor;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * LeakedThisFinal for a record: its compact canonical constructor leaks this before the component
 * assignments that javac appends to it (s, then a, then b); the reader loads b, then a.
 */
@JCStressTest
@Outcome(id = "-1, -1", expect = ACCEPTABLE, desc = "the reader ran before the leak")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the leak, the reader, then a = 1 and b = 1")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the leak, a = 1, the reader, b = 1")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "writer, reader")
@Outcome(id = "0, 1", expect = FORBIDDEN,
        desc = "saw b = 1, then missed a = 1 stored before it: not SC (final fields promise nothing once this leaks)")
@State
public class LeakedThisRecord {
    /** Its canonical constructor publishes the record before its components are stored. */
    record Leaky(LeakedThisRecord s, int a, int b) {
        Leaky {
            s.leaked = this;
        }
    }

    Leaky leaked;

    @Actor
    public void writer() {
        new Leaky(this, 1, 1);
    }

    // Reports (a, b), loading b first: seeing b = 1 then implies seeing a = 1.
    @Actor
    public void reader(II_Result r) {
        Leaky l = leaked;
        if (l == null) {
            r.r1 = -1;
            r.r2 = -1;
        } else {
            r.r2 = l.b();
            r.r1 = l.a();
        }
    }
}
