package dev.vbd.litmus.locks;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * Two actors increment a pair of plain fields under a fresh ReservedLock, actor1 twice, actor2
 * once: whichever comes first reserves the lock, the other cancels the reservation, racing with the
 * reserver's lock and unlock. The arbiter reads the pair and the lock's cancellation count.
 */
@JCStressTest
@Outcome(id = "3, 3, 1", expect = ACCEPTABLE, desc = "no lost update, no torn pair; one cancellation")
@Outcome(id = "3, 3, 0", expect = ACCEPTABLE,
        desc = "no lost update; no cancellation: each acquisition but the last found the other thread queued on the base lock"
                + " (so only the last one reserved), or reservation is unavailable (no membarrier)")
@Outcome(expect = FORBIDDEN, desc = "a lost update or a torn pair: both actors were inside the lock at once")
@State
public class MutualExclusion extends FreshLock {
    int a, b;

    private void increment() {
        lock.lock();
        try {
            int x = a;
            a = x + 1;
            b = b + 1;
        } finally {
            lock.unlock();
        }
    }

    @Actor
    public void actor1() {
        increment();
        increment();
    }

    @Actor
    public void actor2() {
        increment();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = a;
        r.r2 = b;
        r.r3 = (int) lock.cancellations();
    }
}
