package dev.vbd.litmus.stable;

import jdk.internal.vm.annotation.Stable;
import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * Store buffering on two elements of an int[] held in a field that an application class marks
 * @Stable (for an array, @Stable covers its elements too). HotSpot trusts @Stable only in classes of
 * the JDK itself, so here the annotation changes nothing.
 */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor1 ran entirely before actor2")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "actor2 ran entirely before actor1")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both stores ran before both loads")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "both loads passed the other thread's store: not SC")
@State
public class IntArrayElements {
    @Stable
    final int[] a = new int[2];

    @Actor
    public void actor1(II_Result r) {
        a[0] = 1;
        r.r1 = a[1];
    }

    @Actor
    public void actor2(II_Result r) {
        a[1] = 1;
        r.r2 = a[0];
    }
}
