package dev.vbd.locks.bench;

import dev.vbd.locks.ReservedLock;
import org.openjdk.jmh.annotations.*;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * ReservedLock against ReentrantLock and synchronized: (1) an uncontended lock/unlock pair by one
 * thread; (2) owner-dominant: the owner locks and unlocks continuously while an intruder takes the
 * lock once every millisecond (cancelling the reservation, which the owner makes again); (3) real
 * contention: two threads lock and unlock continuously. Each critical section increments a plain
 * field. Run with bench.sh (docs/locks.md).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class LockBench {

    @State(Scope.Group)
    public static class Locks {
        final ReservedLock reserved = new ReservedLock();
        final ReentrantLock reentrant = new ReentrantLock();
        final Object monitor = new Object();
        int counter;

        @Setup(Level.Trial)
        public void check() {
            if (!ReservedLock.reservationAvailable()) {
                throw new IllegalStateException("no reservation: " + ReservedLock.reservationUnavailableReason());
            }
        }
    }

    /** Cancellations of the lock seen by the intruder (secondary results, per iteration). */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Cancels {
        public long cancellations;
        public long cancellationNanos;

        @Setup(Level.Iteration)
        public void reset() {
            cancellations = 0;
            cancellationNanos = 0;
        }
    }

    static void reservedOp(Locks s) {
        ReservedLock l = s.reserved;
        l.lock();
        try {
            s.counter++;
        } finally {
            l.unlock();
        }
    }

    static void reentrantOp(Locks s) {
        ReentrantLock l = s.reentrant;
        l.lock();
        try {
            s.counter++;
        } finally {
            l.unlock();
        }
    }

    static void syncOp(Locks s) {
        synchronized (s.monitor) {
            s.counter++;
        }
    }

    static void pause() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // (1) uncontended: one thread (a group of one)

    @Benchmark @Group("uncontended_reserved") @GroupThreads(1)
    public void uncontendedReserved(Locks s) { reservedOp(s); }

    @Benchmark @Group("uncontended_reentrant") @GroupThreads(1)
    public void uncontendedReentrant(Locks s) { reentrantOp(s); }

    @Benchmark @Group("uncontended_sync") @GroupThreads(1)
    public void uncontendedSync(Locks s) { syncOp(s); }

    // (2) owner-dominant: the owner's ns/op is the result; the intruder's is about 1 ms

    @Benchmark @Group("ownerDominant_reserved") @GroupThreads(1)
    public void owner_reserved(Locks s) { reservedOp(s); }

    @Benchmark @Group("ownerDominant_reserved") @GroupThreads(1)
    public void intruder_reserved(Locks s, Cancels c) {
        ReservedLock l = s.reserved;
        long n0 = l.cancellations(), t0 = l.cancellationNanos();
        reservedOp(s);
        c.cancellations += l.cancellations() - n0;
        c.cancellationNanos += l.cancellationNanos() - t0;
        pause();
    }

    @Benchmark @Group("ownerDominant_reentrant") @GroupThreads(1)
    public void owner_reentrant(Locks s) { reentrantOp(s); }

    @Benchmark @Group("ownerDominant_reentrant") @GroupThreads(1)
    public void intruder_reentrant(Locks s) { reentrantOp(s); pause(); }

    @Benchmark @Group("ownerDominant_sync") @GroupThreads(1)
    public void owner_sync(Locks s) { syncOp(s); }

    @Benchmark @Group("ownerDominant_sync") @GroupThreads(1)
    public void intruder_sync(Locks s) { syncOp(s); pause(); }

    // (3) real contention: two threads

    @Benchmark @Group("contended_reserved") @GroupThreads(2)
    public void contendedReserved(Locks s) { reservedOp(s); }

    @Benchmark @Group("contended_reentrant") @GroupThreads(2)
    public void contendedReentrant(Locks s) { reentrantOp(s); }

    @Benchmark @Group("contended_sync") @GroupThreads(2)
    public void contendedSync(Locks s) { syncOp(s); }
}
