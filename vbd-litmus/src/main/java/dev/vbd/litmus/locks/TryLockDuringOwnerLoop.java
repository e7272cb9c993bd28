package dev.vbd.litmus.locks;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * tryLock against the reserver's lock/unlock: actor1 reserves a fresh lock and increments a plain
 * counter under it twice; actor2 tries the lock once (cancelling the reservation only if it finds
 * the lock free after the barrier, else aborting and keeping it) and increments if it got it. The
 * arbiter reads whether actor2 got it and the final count: 3 if it did, 2 if not.
 */
@JCStressTest
@Outcome(id = "1, 3", expect = ACCEPTABLE, desc = "actor2's tryLock succeeded; no lost update")
@Outcome(id = "0, 2", expect = ACCEPTABLE, desc = "actor2's tryLock failed: actor1 held the lock (or was taking it)")
@Outcome(expect = FORBIDDEN, desc = "a lost update: both inside at once")
@State
public class TryLockDuringOwnerLoop extends LockedCounter {
    int got;

    @Actor
    public void actor1() {
        reserveThenIncrement(2);
    }

    @Actor
    public void actor2() {
        if (lock.tryLock()) {
            try {
                count = count + 1;
            } finally {
                lock.unlock();
            }
            got = 1;
        }
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = got;
        r.r2 = count;
    }
}
