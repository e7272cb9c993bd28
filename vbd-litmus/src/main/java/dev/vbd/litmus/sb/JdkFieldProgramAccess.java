package dev.vbd.litmus.sb;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import java.awt.Point;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * Store buffering on fields a JDK class declares ({@code java.awt.Point}'s public, non-volatile
 * {@code x}), stored and loaded by the program's own code: vbd makes the JDK's fields SC either
 * way, declared volatile in the prepared JDK or left plain there with the program's accesses fenced.
 */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor1 ran entirely before actor2")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "actor2 ran entirely before actor1")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both stores ran before both loads")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "both loads passed the other thread's store: not SC")
@State
public class JdkFieldProgramAccess {
    final Point a = new Point(), b = new Point();

    @Actor
    public void actor1(II_Result r) {
        a.x = 1;
        r.r1 = b.x;
    }

    @Actor
    public void actor2(II_Result r) {
        b.x = 1;
        r.r2 = a.x;
    }
}
