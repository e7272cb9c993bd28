package dev.vbd.litmus.sb;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * Store buffering on arrays each actor allocates and publishes before storing into them: from
 * the publishing store on, the other thread can see the array, so the element store after it
 * must be fenced although the array came from this method. An element store left plain there
 * lets the following load pass it.
 */
@JCStressTest
@Outcome(id = {"1, 1", "0, 1", "1, 0", "-1, 1", "1, -1"}, expect = ACCEPTABLE, desc = "some interleaving")
@Outcome(id = {"0, 0", "-1, 0", "0, -1", "-1, -1"}, expect = FORBIDDEN,
        desc = "each actor missed the other's publication or element store: not SC")
@State
public class LocalArrayEscaped {
    int[] x;
    int[] y;

    @Actor
    public void actor1(II_Result r) {
        int[] a = new int[1];
        x = a;
        a[0] = 1;
        int[] b = y;
        r.r1 = b == null ? -1 : b[0];
    }

    @Actor
    public void actor2(II_Result r) {
        int[] b = new int[1];
        y = b;
        b[0] = 1;
        int[] a = x;
        r.r2 = a == null ? -1 : a[0];
    }
}
