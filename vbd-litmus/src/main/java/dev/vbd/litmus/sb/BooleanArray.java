package dev.vbd.litmus.sb;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.ZZ_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Store buffering (Dekker) on two elements of a plain boolean[]. */
@JCStressTest
@Outcome(id = "false, true", expect = ACCEPTABLE, desc = "actor1 ran entirely before actor2")
@Outcome(id = "true, false", expect = ACCEPTABLE, desc = "actor2 ran entirely before actor1")
@Outcome(id = "true, true", expect = ACCEPTABLE, desc = "both stores ran before both loads")
@Outcome(id = "false, false", expect = FORBIDDEN, desc = "both loads passed the other thread's store: not SC")
@State
public class BooleanArray {
    boolean[] a = new boolean[2];

    @Actor
    public void actor1(ZZ_Result r) {
        a[0] = true;
        r.r1 = a[1];
    }

    @Actor
    public void actor2(ZZ_Result r) {
        a[1] = true;
        r.r2 = a[0];
    }
}
