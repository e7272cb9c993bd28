package dev.vbd.litmus.mutex;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Dekker's try-lock on a plain boolean[]: raise my flag, enter only if the other's is down. */
@JCStressTest
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "actor1, actor2: actor2 saw actor1's flag and backed off")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor2, actor1: actor1 saw actor2's flag and backed off")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "both flag stores ran before both loads: both backed off")
@Outcome(id = "1, 1", expect = FORBIDDEN,
        desc = "both entered, each missing the other's flag: mutual exclusion broken, not SC")
@State
public class Dekker {
    boolean[] flag = new boolean[2];

    @Actor
    public void actor1(II_Result r) {
        flag[0] = true;
        r.r1 = flag[1] ? 0 : 1;
    }

    @Actor
    public void actor2(II_Result r) {
        flag[1] = true;
        r.r2 = flag[0] ? 0 : 1;
    }
}
