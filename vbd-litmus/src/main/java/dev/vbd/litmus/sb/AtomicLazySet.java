package dev.vbd.litmus.sb;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Store buffering (Dekker) on two AtomicIntegers, stored with lazySet and loaded with get. */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor1 ran entirely before actor2")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "actor2 ran entirely before actor1")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both stores ran before both loads")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "both loads passed the other thread's lazySet: not SC")
@State
public class AtomicLazySet {
    AtomicInteger x = new AtomicInteger(), y = new AtomicInteger();

    @Actor
    public void actor1(II_Result r) {
        x.lazySet(1);
        r.r1 = y.get();
    }

    @Actor
    public void actor2(II_Result r) {
        y.lazySet(1);
        r.r2 = x.get();
    }
}
