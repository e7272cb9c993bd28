package dev.vbd.litmus.locks;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * The cancellation races with the reserver's lock/unlock loop. actor1 reserves a fresh lock (lock
 * and unlock once, unless actor2 got there first), then increments a plain counter under the lock
 * four times; actor2 takes the lock once, cancelling actor1's reservation, records the count it
 * sees inside and increments it. The arbiter reads the final count (5: no lost update) and the
 * lock's cancellations (one: the second thread to come cancels the first one's reservation, and
 * nobody takes the lock often enough to reserve it again; rarely none, see the outcomes).
 */
@JCStressTest
@Outcome(id = {"0, 5, 1", "1, 5, 1", "2, 5, 1", "3, 5, 1", "4, 5, 1"}, expect = ACCEPTABLE,
        desc = "actor2 took the lock before, between or after actor1's critical sections; one cancellation")
@Outcome(id = {"0, 5, 0", "1, 5, 0", "2, 5, 0", "3, 5, 0", "4, 5, 0"}, expect = ACCEPTABLE,
        desc = "no cancellation: each acquisition but the last found the other thread queued on the base lock"
                + " (non-fair barging; so only the last one reserved), or reservation is unavailable (no membarrier)")
@Outcome(expect = FORBIDDEN, desc = "a lost update, or actor2 inside at the same time as actor1")
@State
public class CancelDuringOwnerLoop extends LockedCounter {
    @Actor
    public void actor1() {
        reserveThenIncrement(4);
    }

    @Actor
    public void actor2(III_Result r) {
        lock.lock();
        try {
            int c = count;
            r.r1 = c;
            count = c + 1;
        } finally {
            lock.unlock();
        }
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r2 = count;
        r.r3 = (int) lock.cancellations();
    }
}
