package dev.vbd.locks;

import dev.vbd.Relaxed;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Date;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A reentrant mutual-exclusion lock with lock reservation (Kawachiya, Koseki, Onodera, "Lock
 * reservation: Java locks can mostly do without atomic operations", OOPSLA 2002), on a stock JVM.
 *
 * <p>The first thread that takes the lock reserves it. While the lock is reserved for a thread, that
 * thread locks and unlocks it with plain memory operations only: no atomic instruction and, on x86,
 * no hardware fence. Any other thread first cancels the reservation (an asymmetric Dekker
 * handshake whose heavy side is Linux {@code membarrier(2)}) and then takes the lock in base mode, a
 * {@link ReentrantLock}. A thread that then takes the base-mode lock {@code K} times in a row with
 * nobody queued reserves it again; {@code K} starts at {@link Builder#reReserveAfter(int)} and
 * doubles with each cancellation of this lock, so that reservations that ping-pong become rare,
 * except that the cancellation of a reservation that lived at least {@link Builder#longLived
 * longLived} (200 µs by default) resets it to its start.
 *
 * <p>Where {@code membarrier} is unavailable (not Linux x86-64, the native library missing, a
 * seccomp filter, {@code -Dvbd.locks.reserve=false}), or with {@link Builder#reservation(boolean)
 * reservation(false)}, the lock never reserves and is a plain reentrant lock: see
 * {@link #reservationAvailable()}.
 *
 * <p>Semantics are those of a non-fair {@link ReentrantLock}: hold counts, {@link
 * IllegalMonitorStateException} from {@link #unlock()} by a thread that does not hold it, {@link
 * Condition}s from {@link #newCondition()} (awaiting or signalling while the lock is held in reserved
 * mode first moves the caller's holds to the base lock, which cancels the reservation). One
 * difference: {@link #tryLock()} may fail, without waiting, while another thread is in the middle of
 * cancelling the reservation. The protocol and its soundness argument are in docs/locks.md.
 */
@Relaxed("written for the Java Memory Model: the reservation protocol is argued in docs/locks.md")
public final class ReservedLock implements Lock {

    /** One reservation: a fresh object each time, so that a late store by a former owner is harmless. */
    @Relaxed
    static final class Reservation {
        final Thread owner;
        /** Hold count in reserved mode; written only by {@link #owner}. */
        int holds;
        final long since = System.nanoTime();

        Reservation(Thread owner, int holds) {
            this.owner = owner;
            this.holds = holds;
        }
    }

    private static final VarHandle HOLDS;
    private static final VarHandle REVOKING;
    private static final VarHandle CANCELS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            HOLDS = l.findVarHandle(Reservation.class, "holds", int.class);
            REVOKING = l.findVarHandle(ReservedLock.class, "revoking", int.class);
            CANCELS = l.findVarHandle(ReservedLock.class, "cancellations", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final LongAdder TOTAL_CANCELLATIONS = new LongAdder();
    private static final LongAdder TOTAL_CANCELLATION_NANOS = new LongAdder();
    private static final LongAdder TOTAL_RESERVATIONS = new LongAdder();
    private static final LongAdder TOTAL_BARRIER_NANOS = new LongAdder();

    /** The default start of {@code K}, the run of base-mode acquisitions that re-reserves. */
    public static final int DEFAULT_RE_RESERVE_AFTER = 64;
    /** The default lifetime from which a cancelled reservation resets K instead of doubling it. */
    public static final long DEFAULT_LONG_LIVED_NANOS = 200_000;
    private static final int MAX_THRESHOLD = 1 << 30;

    // The reservation (null: base mode). Replaced only by the holder of the revoking token, except
    // that its owner, holding the base lock, may set it to null (condition wait).
    private volatile Reservation res;
    // The token of state changes: 1 while a thread cancels or installs a reservation.
    private volatile int revoking;
    private volatile Thread revoker;

    private final ReentrantLock base = new ReentrantLock();
    private final boolean reservable;
    private final int reReserveAfter;
    private final long longLivedNanos;
    /** The current K: base-mode acquisitions in a row by one thread that reserve the lock. */
    private volatile int threshold;
    private volatile long cancellations;
    private volatile long cancellationNanos;
    private volatile long reservations;

    // Guarded by the base lock.
    private Thread lastBaseOwner;
    private int run;

    /** A lock with reservation (if available) and the default {@code K}. */
    public ReservedLock() {
        this(true, DEFAULT_RE_RESERVE_AFTER, DEFAULT_LONG_LIVED_NANOS);
    }

    /**
     * A lock with reservation (if available) that re-reserves after {@code reReserveAfter} base-mode
     * acquisitions in a row by one thread, doubling with each cancellation; 0 never re-reserves.
     */
    public ReservedLock(int reReserveAfter) {
        this(true, reReserveAfter, DEFAULT_LONG_LIVED_NANOS);
    }

    private ReservedLock(boolean reservation, int reReserveAfter, long longLivedNanos) {
        if (reReserveAfter < 0) throw new IllegalArgumentException("reReserveAfter < 0: " + reReserveAfter);
        this.reservable = reservation && Membarrier.AVAILABLE;
        this.reReserveAfter = reReserveAfter;
        this.longLivedNanos = longLivedNanos;
        this.threshold = 1; // the first thread to take the lock reserves it
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Options of a {@link ReservedLock}. */
    public static final class Builder {
        private boolean reservation = true;
        private int reReserveAfter = DEFAULT_RE_RESERVE_AFTER;
        private long longLivedNanos = DEFAULT_LONG_LIVED_NANOS;

        private Builder() {}

        /** false: never reserve, a plain reentrant lock (the fallback where membarrier is missing). */
        public Builder reservation(boolean on) {
            this.reservation = on;
            return this;
        }

        /** The start of {@code K} (doubling with each cancellation); 0: never re-reserve. */
        public Builder reReserveAfter(int k) {
            if (k < 0) throw new IllegalArgumentException("k < 0: " + k);
            this.reReserveAfter = k;
            return this;
        }

        /**
         * A cancelled reservation that had lived at least this long (it paid for its cancellation
         * many times over) resets K to its start instead of doubling it; 0: always double.
         * Default {@value #DEFAULT_LONG_LIVED_NANOS} ns.
         */
        public Builder longLived(long time, TimeUnit unit) {
            if (time < 0) throw new IllegalArgumentException("time < 0: " + time);
            this.longLivedNanos = unit.toNanos(time);
            return this;
        }

        public ReservedLock build() {
            return new ReservedLock(reservation, reReserveAfter, longLivedNanos);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Lock

    @Override
    public void lock() {
        Thread me = Thread.currentThread();
        Reservation r = res;
        if (r != null && r.owner == me) {
            int h = r.holds;
            if (h > 0) {
                r.holds = h + 1;
                return;
            }
            if (ownerAcquire(r)) return;
        }
        lockSlow(me);
    }

    /**
     * The owner's acquisition from holds == 0: publish holds = 1, then look for a revoker. The
     * store must precede the loads in the compiled code (acquireFence: a full compiler barrier in
     * HotSpot, no instruction on x86); membarrier in the revoker orders them in the hardware.
     */
    private boolean ownerAcquire(Reservation r) {
        HOLDS.setOpaque(r, 1);
        VarHandle.acquireFence();
        if ((int) REVOKING.getAcquire(this) == 0 && res == r) return true;
        ownerBackOff(r);
        return false;
    }

    /** A revoker is (or was) at work: give the hold back and wait for it to finish. */
    private void ownerBackOff(Reservation r) {
        HOLDS.setVolatile(r, 0);
        Thread u = revoker;
        if (u != null) LockSupport.unpark(u);
        awaitNoRevoker();
    }

    private void awaitNoRevoker() {
        boolean interrupted = false;
        for (int i = 0; revoking != 0; i++) {
            if (i < 64) Thread.onSpinWait();
            else if (i < 128) Thread.yield();
            else {
                LockSupport.parkNanos(this, 20_000);
                if (Thread.interrupted()) interrupted = true; // else park would return at once
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }

    private void lockSlow(Thread me) {
        try {
            acquire(me, WAIT_FOREVER, false);
        } catch (InterruptedException e) {
            throw new AssertionError("an uninterruptible acquisition was interrupted", e);
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) throw new InterruptedException();
        acquire(Thread.currentThread(), WAIT_FOREVER, true);
    }

    @Override
    public boolean tryLock() {
        try {
            return acquire(Thread.currentThread(), NO_WAIT, false);
        } catch (InterruptedException e) {
            throw new AssertionError("an uninterruptible acquisition was interrupted", e);
        }
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        if (Thread.interrupted()) throw new InterruptedException();
        long nanos = unit.toNanos(time);
        long deadline = System.nanoTime() + Math.max(nanos, 0);
        if (deadline == WAIT_FOREVER || deadline == NO_WAIT) deadline++;
        return acquire(Thread.currentThread(), deadline, true);
    }

    /**
     * Every acquisition but the owner's fast path: as the reserver, or by cancelling another
     * thread's reservation and taking the base lock. deadline: WAIT_FOREVER, NO_WAIT, or a
     * System.nanoTime() deadline. Throws InterruptedException only when interruptible.
     */
    private boolean acquire(Thread me, long deadline, boolean interruptible) throws InterruptedException {
        for (;;) {
            Reservation r = res;
            if (r != null) {
                if (r.owner == me) {
                    int h = r.holds;
                    if (h > 0) { r.holds = h + 1; return true; }
                    if (ownerAcquire(r)) return true;
                    continue;
                }
                int o = revoke(r, deadline, interruptible);
                if (o == INTERRUPTED) throw new InterruptedException();
                if (o == HELD || o == BUSY || o == TIMED_OUT) return false;
                continue;
            }
            if (!baseAcquire(deadline, interruptible)) return false;
            if (res == null) {
                afterBaseAcquire(me);
                return true;
            }
            base.unlock(); // reserved while we queued: cancel it first
        }
    }

    private boolean baseAcquire(long deadline, boolean interruptible) throws InterruptedException {
        if (deadline == WAIT_FOREVER) {
            if (interruptible) base.lockInterruptibly();
            else base.lock();
            return true;
        }
        if (deadline == NO_WAIT) return base.tryLock();
        return base.tryLock(Math.max(deadline - System.nanoTime(), 0), TimeUnit.NANOSECONDS);
    }

    @Override
    public void unlock() {
        Reservation r = res;
        if (r != null && r.owner == Thread.currentThread()) {
            int h = r.holds;
            if (h > 1) {
                r.holds = h - 1;
                return;
            }
            if (h == 1) {
                HOLDS.setRelease(r, 0);
                VarHandle.acquireFence(); // keeps the load of revoking after the store (compiler)
                if (revoking != 0) {
                    Thread u = revoker;
                    if (u != null) LockSupport.unpark(u);
                }
                return;
            }
        }
        base.unlock(); // throws IllegalMonitorStateException as ReentrantLock does
    }

    @Override
    public Condition newCondition() {
        return new ReservedCondition(base.newCondition());
    }

    // ---------------------------------------------------------------------------------------------
    // Base mode and re-reservation

    /** Called holding the base lock, with res == null. */
    private void afterBaseAcquire(Thread me) {
        if (!reservable) return;
        int k = threshold;
        if (k == 0 || base.getHoldCount() != 1) return;
        if (base.hasQueuedThreads()) {
            lastBaseOwner = null;
            run = 0;
            return;
        }
        if (lastBaseOwner == me) {
            run++;
        } else {
            lastBaseOwner = me;
            run = 1;
        }
        if (run >= k) reserve(me);
    }

    /** Holding the base lock once, nobody queued: move the hold to a new reservation. */
    private void reserve(Thread me) {
        if (!REVOKING.compareAndSet(this, 0, 1)) return;
        if (res != null) { // cannot happen while we hold the base lock; defensive
            REVOKING.setVolatile(this, 0);
            return;
        }
        lastBaseOwner = null;
        run = 0;
        res = new Reservation(me, 1);
        reservations = reservations + 1; // single writer: the token holder
        TOTAL_RESERVATIONS.increment();
        REVOKING.setVolatile(this, 0);
        base.unlock();
    }

    // ---------------------------------------------------------------------------------------------
    // Cancellation

    private static final long WAIT_FOREVER = Long.MIN_VALUE;
    private static final long NO_WAIT = Long.MIN_VALUE + 1;

    private static final int REVOKED = 0;   // res is no longer r: retry
    private static final int HELD = 1;      // r is held by its owner and we may not wait
    private static final int BUSY = 2;      // another thread holds the token and we may not wait
    private static final int TIMED_OUT = 3;
    private static final int INTERRUPTED = 4;

    /**
     * Cancels reservation r of another thread. deadline: WAIT_FOREVER, NO_WAIT, or a
     * System.nanoTime() deadline. Returns REVOKED when res is no longer r (by us or anyone).
     */
    private int revoke(Reservation r, long deadline, boolean interruptible) {
        boolean[] interrupted = {false};
        int outcome = revoke(r, deadline, interruptible, interrupted);
        if (interrupted[0]) Thread.currentThread().interrupt(); // an uninterruptible wait keeps the status
        return outcome;
    }

    private int revoke(Reservation r, long deadline, boolean interruptible, boolean[] interrupted) {
        // 1. win the token; anyone else holding it is cancelling or installing: wait for it
        for (int i = 0; !REVOKING.compareAndSet(this, 0, 1); i++) {
            if (!interruptible && Thread.interrupted()) interrupted[0] = true;
            if (res != r) return REVOKED;
            if (deadline == NO_WAIT) return BUSY;
            if (interruptible && Thread.interrupted()) return INTERRUPTED;
            if (deadline != WAIT_FOREVER && deadline - System.nanoTime() <= 0) return TIMED_OUT;
            if (i < 64) Thread.onSpinWait();
            else if (i < 128) Thread.yield();
            else LockSupport.parkNanos(this, 20_000);
        }
        // 2. the token holds res still: only the token holder replaces it (or its owner sets null)
        if (res != r) {
            REVOKING.setVolatile(this, 0);
            return REVOKED;
        }
        long t0 = System.nanoTime();
        Thread me = Thread.currentThread();
        revoker = me;
        // 3. the owner's store holds=1 is now visible to us, or its load of revoking sees 1
        Membarrier.barrier();
        TOTAL_BARRIER_NANOS.add(System.nanoTime() - t0);
        // 4. wait for the owner to leave (it unparks us when it unlocks with revoking != 0)
        for (int i = 0; (int) HOLDS.getVolatile(r) != 0; i++) {
            if (!interruptible && Thread.interrupted()) interrupted[0] = true;
            int abort = -1;
            if (deadline == NO_WAIT) abort = HELD;
            else if (interruptible && Thread.interrupted()) abort = INTERRUPTED;
            else if (deadline != WAIT_FOREVER && deadline - System.nanoTime() <= 0) abort = TIMED_OUT;
            if (abort >= 0) {
                revoker = null;
                REVOKING.setVolatile(this, 0); // the reservation stays
                return abort;
            }
            if (i < 32) Thread.onSpinWait();
            else if (i < 48) Thread.yield();
            else LockSupport.parkNanos(this, deadline == WAIT_FOREVER ? 200_000 : Math.min(200_000, Math.max(1, deadline - System.nanoTime())));
        }
        // 5. the owner is out and cannot come back in (it would see revoking == 1, or res != r).
        // K first: whoever sees res == null must see the new K (else it could reserve at once with
        // the old one, and we would cancel again)
        if (res == r) { // else its owner gave it up itself (a condition wait) and counted that
            cancelled(r, t0);
            res = null;
        }
        revoker = null;
        REVOKING.setVolatile(this, 0);
        return REVOKED;
    }

    /** Book-keeping of one cancellation: counters, timers, and K's doubling. */
    private void cancelled(Reservation r, long t0) {
        long now = System.nanoTime();
        long dt = now - t0;
        long n = (long) CANCELS.getAndAdd(this, 1L) + 1;
        cancellationNanos = cancellationNanos + dt; // racy only against a concurrent condition wait's conversion
        TOTAL_CANCELLATIONS.increment();
        TOTAL_CANCELLATION_NANOS.add(dt);
        if (reReserveAfter == 0) {
            threshold = 0;
        } else if (n == 1 || (longLivedNanos > 0 && t0 - r.since >= longLivedNanos)) {
            threshold = reReserveAfter;
        } else {
            int k = threshold;
            threshold = k >= MAX_THRESHOLD / 2 ? MAX_THRESHOLD : Math.max(1, k * 2);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Conditions

    /** If the caller holds the lock in reserved mode, moves its holds to the base lock. */
    private void toBaseMode() {
        Reservation r = res;
        Thread me = Thread.currentThread();
        if (r == null || r.owner != me) return;
        int h = r.holds;
        if (h == 0) return;
        long t0 = System.nanoTime();
        for (int i = 0; i < h; i++) base.lock();
        // holding the base lock: nobody can install a reservation; a revoker only sets res to null
        cancelled(r, t0);
        res = null;
        HOLDS.setVolatile(r, 0);
        Thread u = revoker;
        if (u != null) LockSupport.unpark(u);
    }

    @Relaxed
    private final class ReservedCondition implements Condition {
        private final Condition c;

        ReservedCondition(Condition c) {
            this.c = c;
        }

        @Override public void await() throws InterruptedException { toBaseMode(); c.await(); }
        @Override public void awaitUninterruptibly() { toBaseMode(); c.awaitUninterruptibly(); }
        @Override public long awaitNanos(long nanosTimeout) throws InterruptedException { toBaseMode(); return c.awaitNanos(nanosTimeout); }
        @Override public boolean await(long time, TimeUnit unit) throws InterruptedException { toBaseMode(); return c.await(time, unit); }
        @Override public boolean awaitUntil(Date deadline) throws InterruptedException { toBaseMode(); return c.awaitUntil(deadline); }
        @Override public void signal() { toBaseMode(); c.signal(); }
        @Override public void signalAll() { toBaseMode(); c.signalAll(); }
    }

    // ---------------------------------------------------------------------------------------------
    // Queries

    public boolean isHeldByCurrentThread() {
        Reservation r = res;
        if (r != null && r.owner == Thread.currentThread() && r.holds > 0) return true;
        return base.isHeldByCurrentThread();
    }

    public int getHoldCount() {
        Reservation r = res;
        if (r != null && r.owner == Thread.currentThread() && r.holds > 0) return r.holds;
        return base.getHoldCount();
    }

    /** Whether any thread holds the lock (a snapshot, for monitoring). */
    public boolean isLocked() {
        Reservation r = res;
        if (r != null && (int) HOLDS.getAcquire(r) > 0) return true;
        return base.isLocked();
    }

    /** The thread the lock is reserved for, or null in base mode (a snapshot). */
    public Thread reservedBy() {
        Reservation r = res;
        return r == null ? null : r.owner;
    }

    /** Whether this lock may reserve: membarrier is available and reservation was not turned off. */
    public boolean isReservable() {
        return reservable;
    }

    /** The current K: base-mode acquisitions in a row by one thread that re-reserve (0: never). */
    public int reReserveThreshold() {
        return threshold;
    }

    /** Cancellations of this lock's reservations (by other threads, or by a condition wait). */
    public long cancellations() {
        return cancellations;
    }

    /** Total time spent in this lock's cancellations, from winning the token to base mode. */
    public long cancellationNanos() {
        return cancellationNanos;
    }

    /** Reservations made on this lock (the first one included). */
    public long reservations() {
        return reservations;
    }

    /** Whether reservation works in this process (membarrier through the JNI library). */
    public static boolean reservationAvailable() {
        return Membarrier.AVAILABLE;
    }

    /** Why {@link #reservationAvailable()} is false, or null. */
    public static String reservationUnavailableReason() {
        return Membarrier.UNAVAILABLE_REASON;
    }

    /** Cancellations of all locks in this process. */
    public static long totalCancellations() {
        return TOTAL_CANCELLATIONS.sum();
    }

    /** Time spent in the cancellations of all locks, nanoseconds. */
    public static long totalCancellationNanos() {
        return TOTAL_CANCELLATION_NANOS.sum();
    }

    /**
     * Of {@link #totalCancellationNanos()}, the time spent in membarrier itself (the rest is waiting
     * for the owner to leave the lock, and book-keeping). Aborted cancellations count here too.
     */
    public static long totalBarrierNanos() {
        return TOTAL_BARRIER_NANOS.sum();
    }

    /** Reservations of all locks in this process. */
    public static long totalReservations() {
        return TOTAL_RESERVATIONS.sum();
    }

    @Override
    public String toString() {
        Reservation r = res;
        String state = r != null ? "reserved by " + r.owner.getName() + (r.holds > 0 ? ", held" : "")
                : base.isLocked() ? "locked in base mode" : "unlocked";
        return super.toString() + "[" + state + "]";
    }
}
