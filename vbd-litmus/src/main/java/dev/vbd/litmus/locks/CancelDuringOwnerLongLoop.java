package dev.vbd.litmus.locks;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * As {@link CancelDuringOwnerLoop}, with the reserver locking and unlocking 64 times, so that the
 * cancellation (microseconds: a membarrier) more often lands in the middle of the reserver's loop,
 * where the race between its announcement (holds = 1, then the load of revoking) and the revoker's
 * token and load of holds is. The arbiter reads the final count (65: no lost update) and the
 * lock's cancellations (one, or two when actor1 re-reserved the lock in between).
 */
@JCStressTest
@Outcome(id = "65, 1", expect = ACCEPTABLE, desc = "no lost update; one cancellation")
@Outcome(id = "65, 0", expect = ACCEPTABLE,
        desc = "no lost update; no cancellation: only the last thread reserved (the other was queued whenever it took"
                + " the lock), or reservation is unavailable")
@Outcome(id = "65, 2", expect = ACCEPTABLE,
        desc = "no lost update; two cancellations: after the first, actor1 took the lock 64 times in a row in base mode"
                + " (K = 64) before actor2 reached the base lock, so it reserved again and actor2 cancelled that too")
@Outcome(expect = FORBIDDEN, desc = "a lost update (both inside the lock at once), or more cancellations than reservations allow")
@State
public class CancelDuringOwnerLongLoop extends LockedCounter {
    static final int N = 64;

    @Actor
    public void actor1() {
        reserveThenIncrement(N);
    }

    @Actor
    public void actor2() {
        increment();
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = count;
        r.r2 = (int) lock.cancellations();
    }
}
