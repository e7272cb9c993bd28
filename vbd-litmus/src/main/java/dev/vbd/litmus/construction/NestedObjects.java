package dev.vbd.litmus.construction;

import dev.vbd.litmus.ConstructionGuarantee;
import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * A constructor makes another object, sets one of its fields after the inner constructor returned,
 * and keeps it in a plain field: the outer constructor's stores to the inner object count too.
 */
@JCStressTest
@ConstructionGuarantee
@Outcome(id = "-1, -1, -1", expect = ACCEPTABLE, desc = "the reader ran first")
@Outcome(id = "1, 2, 3", expect = ACCEPTABLE, desc = "both objects, whole")
@Outcome(expect = FORBIDDEN, desc = "saw the outer object but not every store its constructor made")
@State
public class NestedObjects {
    static class Inner {
        int x, y;

        Inner(int x) {
            this.x = x;
        }
    }

    static class Outer {
        Inner inner;
        int z;

        Outer() {
            Inner i = new Inner(1);
            i.y = 2;
            inner = i;
            z = 3;
        }
    }

    Outer shared;

    @Actor
    public void writer() {
        shared = new Outer();
    }

    @Actor
    public void reader(III_Result r) {
        Outer o = shared;
        if (o == null) {
            r.r1 = r.r2 = r.r3 = -1;
        } else {
            r.r3 = o.z;
            Inner i = o.inner;
            if (i == null) {
                r.r1 = r.r2 = 0;
            } else {
                r.r2 = i.y;
                r.r1 = i.x;
            }
        }
    }
}
