package dev.vbd.litmus.hole;

import dev.vbd.Relaxed;
import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * A known hole in vbd's guarantee, not a failure: an int[] filled while only a local holds it
 * (vbd leaves those stores plain: no other thread can see the array yet), then handed to a
 * {@code @Relaxed} method that publishes it with a plain store. Nothing orders the element stores
 * before that store, so a reader may see the array before its contents, as it may any data relaxed
 * code publishes. Published by an SC store instead, the same array is safe
 * ({@code publication.LocalArrayFilled}).
 */
@JCStressTest
@Outcome(id = "-1, -1", expect = ACCEPTABLE, desc = "no array yet")
@Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "the array and its contents")
@Outcome(id = {"0, 0", "1, 0", "0, 2"}, expect = ACCEPTABLE_INTERESTING,
        desc = "known hole: the array published by relaxed code before its element stores")
@State
public class LocalArrayRelaxedPublish {
    int[] shared;

    @Relaxed
    void publish(int[] a) {
        shared = a;
    }

    @Actor
    public void writer() {
        int[] a = new int[2];
        for (int i = 0; i < a.length; i++) {
            a[i] = i + 1;
        }
        publish(a);
    }

    @Actor
    public void reader(II_Result r) {
        int[] a = shared;
        if (a == null) {
            r.r1 = -1;
            r.r2 = -1;
        } else {
            r.r1 = a[0];
            r.r2 = a[1];
        }
    }
}
