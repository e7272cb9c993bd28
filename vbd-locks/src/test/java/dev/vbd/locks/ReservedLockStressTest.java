package dev.vbd.locks;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Mutual exclusion under stress: a plain counter (and a pair of plain fields) must come out exact. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReservedLockStressTest {

    /** Plain fields, guarded by the lock under test. */
    static final class Counter {
        long n;
        long a, b; // always equal outside the lock
    }

    static void incrementUnder(ReservedLock lock, Counter c) {
        lock.lock();
        try {
            long x = c.a;
            c.n++;
            c.a = x + 1;
            c.b = c.b + 1;
        } finally {
            lock.unlock();
        }
    }

    /** A longer critical section, so that two threads inside at once overlap visibly. */
    static void slowIncrementUnder(ReservedLock lock, Counter c, int spins) {
        lock.lock();
        try {
            long x = c.a;
            long y = c.b;
            for (int i = 0; i < spins; i++) Thread.onSpinWait();
            c.n++;
            c.a = x + 1;
            c.b = y + 1;
        } finally {
            lock.unlock();
        }
    }

    static void runAll(List<Thread> threads) throws InterruptedException {
        for (Thread t : threads) t.start();
        for (Thread t : threads) t.join();
    }

    @Test
    void ownerDominant() throws Exception {
        assumeTrue(ReservedLock.reservationAvailable());
        ReservedLock lock = new ReservedLock(16);
        Counter c = new Counter();
        int ownerOps = 4_000_000, others = 2, otherOps = 2_000;
        long cancelsBefore = lock.cancellations();
        List<Thread> ts = new ArrayList<>();
        ts.add(new Thread(() -> {
            for (int i = 0; i < ownerOps; i++) {
                incrementUnder(lock, c);
                if ((i & 0xffff) == 0) {
                    lock.lock(); // a reentrant hold now and then
                    incrementUnder(lock, c);
                    lock.unlock();
                }
            }
        }));
        for (int k = 0; k < others; k++) {
            ts.add(new Thread(() -> {
                for (int i = 0; i < otherOps; i++) {
                    incrementUnder(lock, c);
                    if ((i & 7) == 0) Thread.yield();
                }
            }));
        }
        runAll(ts);
        long extra = (ownerOps + 0xffff) / 0x10000;
        assertEquals(ownerOps + extra + (long) others * otherOps, c.n);
        assertEquals(c.n, c.a);
        assertEquals(c.n, c.b);
        assertTrue(lock.cancellations() > cancelsBefore, "no cancellation happened");
    }

    @Test
    void evenContention() throws Exception {
        assumeTrue(ReservedLock.reservationAvailable());
        ReservedLock lock = new ReservedLock(1); // re-reserves eagerly: as many cancellations as the doubling allows
        Counter c = new Counter();
        int threads = 4, ops = 300_000;
        List<Thread> ts = new ArrayList<>();
        for (int k = 0; k < threads; k++) {
            ts.add(new Thread(() -> {
                for (int i = 0; i < ops; i++) {
                    if ((i & 3) == 0) {
                        while (!lock.tryLock()) Thread.onSpinWait();
                        c.n++; c.a++; c.b++;
                        lock.unlock();
                    } else {
                        incrementUnder(lock, c);
                    }
                }
            }));
        }
        runAll(ts);
        assertEquals((long) threads * ops, c.n);
        assertEquals(c.n, c.a);
        assertEquals(c.n, c.b);
    }

    /**
     * Many short-lived locks, each reserved by one thread and then taken by another: one
     * cancellation per lock, racing with the reserver's own lock/unlock loop. Millions of locks in
     * total, in rounds of two threads.
     */
    @Test
    void manyCancellations() throws Exception {
        assumeTrue(ReservedLock.reservationAvailable());
        int rounds = 2_000, locksPerRound = 500, reserverOps = 3;
        long cancelsBefore = ReservedLock.totalCancellations();
        long nanosBefore = ReservedLock.totalCancellationNanos();
        long[] lost = {0};
        CyclicBarrier barrier = new CyclicBarrier(2);
        ReservedLock[][] locks = new ReservedLock[2][locksPerRound];
        Counter[][] counters = new Counter[2][locksPerRound];
        Thread a = new Thread(() -> side(0, rounds, locksPerRound, reserverOps, barrier, locks, counters, lost));
        Thread b = new Thread(() -> side(1, rounds, locksPerRound, reserverOps, barrier, locks, counters, lost));
        runAll(List.of(a, b));
        assertEquals(0, lost[0], "lost updates");
        long cancels = ReservedLock.totalCancellations() - cancelsBefore;
        // each lock is reserved by one side and cancelled exactly once, by the other
        assertEquals((long) rounds * locksPerRound * 2, cancels, "one cancellation per lock");
        long ns = ReservedLock.totalCancellationNanos() - nanosBefore;
        System.out.printf("manyCancellations: %d cancellations, mean %.0f ns%n", cancels, (double) ns / cancels);
    }

    /**
     * Side s, each round: creates fresh locks and reserves them (locks[s]), meets the other side,
     * then locks and unlocks its own locks reserverOps times while taking each of the other
     * side's locks once (cancelling their reservation), incrementing under both; meets again and
     * checks the counts of its own locks.
     */
    static final int SPINS = Integer.getInteger("stress.spins", 20);

    private static void side(int s, int rounds, int n, int reserverOps, CyclicBarrier barrier,
                             ReservedLock[][] locks, Counter[][] counters, long[] lost) {
        try {
            int other = 1 - s;
            for (int round = 0; round < rounds; round++) {
                for (int i = 0; i < n; i++) {
                    ReservedLock l = new ReservedLock(0);
                    l.lock(); // reserve
                    l.unlock();
                    locks[s][i] = l;
                    counters[s][i] = new Counter();
                }
                barrier.await();
                for (int i = 0; i < n; i++) {
                    for (int k = 0; k < reserverOps; k++) slowIncrementUnder(locks[s][i], counters[s][i], SPINS);
                    slowIncrementUnder(locks[other][i], counters[other][i], SPINS);
                }
                barrier.await();
                long bad = 0;
                for (int i = 0; i < n; i++) {
                    Counter c = counters[s][i];
                    locks[s][i].lock();
                    if (c.n != reserverOps + 1 || c.a != c.n || c.b != c.n) bad++;
                    locks[s][i].unlock();
                }
                synchronized (lost) {
                    lost[0] += bad;
                }
                barrier.await();
            }
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
