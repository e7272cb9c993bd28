package dev.vbd.litmus.sb;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import java.awt.Point;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * Store buffering on fields a JDK class declares, stored and loaded by the JDK's own code
 * ({@code Point.move} and {@code Point.getX}): the prepared JDK's own accesses are SC, whether its
 * fields are declared volatile or left plain with each access fenced.
 */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor1 ran entirely before actor2")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "actor2 ran entirely before actor1")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both stores ran before both loads")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "both loads passed the other thread's store: not SC")
@State
public class JdkFieldJdkAccess {
    final Point a = new Point(), b = new Point();

    @Actor
    public void actor1(II_Result r) {
        a.move(1, 0);
        r.r1 = (int) b.getX();
    }

    @Actor
    public void actor2(II_Result r) {
        b.move(1, 0);
        r.r2 = (int) a.getX();
    }
}
