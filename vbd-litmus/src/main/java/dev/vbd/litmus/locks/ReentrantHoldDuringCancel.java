package dev.vbd.litmus.locks;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.IIII_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * A reentrant hold during the cancellation. actor1 reserves a fresh lock, then takes it twice and
 * writes a under the inner hold and b under the outer one only; actor2 takes the lock once
 * (cancelling the reservation), reads the pair and increments both. actor2 must never see actor1's
 * state between the inner and the outer unlock (a == 1, b == 0): the inner unlock leaves the lock
 * held. The arbiter reads the final pair.
 */
@JCStressTest
@Outcome(id = "0, 0, 2, 2", expect = ACCEPTABLE, desc = "actor2 before actor1's critical section")
@Outcome(id = "1, 1, 2, 2", expect = ACCEPTABLE, desc = "actor2 after actor1's critical section")
@Outcome(id = "1, 0, 2, 2", expect = FORBIDDEN,
        desc = "actor2 got in after actor1's inner unlock, while actor1 still held the lock once")
@Outcome(expect = FORBIDDEN, desc = "a lost update, or actor2 inside at the same time as actor1")
@State
public class ReentrantHoldDuringCancel extends FreshLock {
    int a, b;

    @Actor
    public void actor1() {
        reserve();
        lock.lock();
        try {
            lock.lock();
            try {
                a = a + 1;
            } finally {
                lock.unlock();
            }
            b = b + 1;
        } finally {
            lock.unlock();
        }
    }

    @Actor
    public void actor2(IIII_Result r) {
        lock.lock();
        try {
            r.r1 = a;
            r.r2 = b;
            a = a + 1;
            b = b + 1;
        } finally {
            lock.unlock();
        }
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r3 = a;
        r.r4 = b;
    }
}
