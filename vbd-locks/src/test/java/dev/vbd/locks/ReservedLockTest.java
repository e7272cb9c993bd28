package dev.vbd.locks;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReservedLockTest {

    /** Runs body in a new thread and waits for it; rethrows its failure. */
    static void inThread(ThrowingRunnable body) throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        t.start();
        t.join();
        if (failure.get() instanceof Exception e) throw e;
        if (failure.get() instanceof Error e) throw e;
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }

    /** A thread that takes the lock once (reserving it, if it is fresh), then holds it or not. */
    static final class Holder extends Thread {
        final ReservedLock lock;
        final boolean hold;
        final CountDownLatch ready = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        Holder(ReservedLock lock, boolean hold) {
            this.lock = lock;
            this.hold = hold;
            setDaemon(true);
        }

        @Override
        public void run() {
            lock.lock();
            if (!hold) lock.unlock();
            ready.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                return;
            }
            if (hold) lock.unlock();
        }

        Holder begin() throws InterruptedException {
            start();
            ready.await();
            return this;
        }

        void end() throws InterruptedException {
            release.countDown();
            join();
        }
    }

    @Test
    void availableHere() {
        // the build machine is Linux x86-64: the library must load and membarrier must work
        assertTrue(ReservedLock.reservationAvailable(), ReservedLock.reservationUnavailableReason());
    }

    @Test
    void firstThreadReservesAndReentrancyCountsHolds() {
        assumeTrue(ReservedLock.reservationAvailable());
        ReservedLock l = new ReservedLock();
        assertNull(l.reservedBy());
        assertFalse(l.isLocked());
        assertEquals(0, l.getHoldCount());
        l.lock();
        assertSame(Thread.currentThread(), l.reservedBy());
        assertTrue(l.isHeldByCurrentThread());
        assertTrue(l.isLocked());
        assertEquals(1, l.getHoldCount());
        l.lock();
        l.lock();
        assertEquals(3, l.getHoldCount());
        l.unlock();
        assertEquals(2, l.getHoldCount());
        l.unlock();
        l.unlock();
        assertEquals(0, l.getHoldCount());
        assertFalse(l.isHeldByCurrentThread());
        assertFalse(l.isLocked());
        assertSame(Thread.currentThread(), l.reservedBy());
        assertThrows(IllegalMonitorStateException.class, l::unlock);
        assertEquals(0, l.cancellations());
        assertEquals(1, l.reservations());
    }

    @Test
    void unlockByNonHolderThrows() throws Exception {
        for (boolean reserve : new boolean[] {true, false}) {
            ReservedLock l = ReservedLock.builder().reservation(reserve).build();
            assertThrows(IllegalMonitorStateException.class, l::unlock);
            Holder h = new Holder(l, true).begin();
            inThread(() -> assertThrows(IllegalMonitorStateException.class, l::unlock));
            assertThrows(IllegalMonitorStateException.class, l::unlock);
            h.end();
            // reserved for h (dead now) but not held: still not ours to unlock
            assertThrows(IllegalMonitorStateException.class, l::unlock);
        }
    }

    @Test
    void tryLockFailsWhileAnotherThreadHoldsItReserved() throws Exception {
        assumeTrue(ReservedLock.reservationAvailable());
        ReservedLock l = new ReservedLock();
        Holder h = new Holder(l, true).begin();
        assertSame(h, l.reservedBy());
        assertTrue(l.isLocked());
        assertFalse(l.isHeldByCurrentThread());
        assertFalse(l.tryLock());
        assertFalse(l.tryLock(20, TimeUnit.MILLISECONDS));
        // the aborted cancellations kept the reservation
        assertSame(h, l.reservedBy());
        assertEquals(0, l.cancellations());
        h.end();
        assertTrue(l.tryLock());
        assertNull(l.reservedBy());
        assertEquals(1, l.cancellations());
        assertEquals(1, l.getHoldCount());
        l.unlock();
    }

    @Test
    void tryLockFailsWhileAnotherThreadHoldsItInBaseMode() throws Exception {
        for (boolean reserve : new boolean[] {true, false}) {
            ReservedLock l = ReservedLock.builder().reservation(reserve).reReserveAfter(0).build();
            if (reserve && ReservedLock.reservationAvailable()) {
                new Holder(l, false).begin().end(); // reserved by a thread now dead
                l.lock();                           // cancels: base mode from now on
                l.unlock();
                assertNull(l.reservedBy());
            }
            Holder h = new Holder(l, true).begin();
            assertNull(l.reservedBy());
            assertTrue(l.isLocked());
            assertFalse(l.tryLock());
            assertFalse(l.tryLock(20, TimeUnit.MILLISECONDS));
            h.end();
            assertTrue(l.tryLock());
            l.unlock();
        }
    }

    @Test
    void lockWaitsForTheReserverToUnlock() throws Exception {
        assumeTrue(ReservedLock.reservationAvailable());
        ReservedLock l = new ReservedLock();
        Holder h = new Holder(l, true).begin();
        AtomicBoolean got = new AtomicBoolean();
        Thread t = new Thread(() -> {
            l.lock();
            got.set(true);
            l.unlock();
        });
        t.start();
        t.join(50);
        assertFalse(got.get());
        h.end();
        t.join();
        assertTrue(got.get());
        assertEquals(1, l.cancellations());
    }

    @Test
    void lockInterruptiblyIsInterrupted() throws Exception {
        for (boolean reserve : new boolean[] {true, false}) {
            ReservedLock l = ReservedLock.builder().reservation(reserve).build();
            Holder h = new Holder(l, true).begin();
            CountDownLatch started = new CountDownLatch(1);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread t = new Thread(() -> {
                started.countDown();
                try {
                    l.lockInterruptibly();
                    l.unlock();
                } catch (Throwable e) {
                    thrown.set(e);
                }
            });
            t.start();
            started.await();
            t.interrupt();
            t.join();
            assertInstanceOf(InterruptedException.class, thrown.get());
            assertFalse(l.isHeldByCurrentThread());
            h.end();
            // already interrupted: throws at once
            Thread.currentThread().interrupt();
            assertThrows(InterruptedException.class, l::lockInterruptibly);
            assertFalse(Thread.interrupted());
            l.lockInterruptibly();
            l.unlock();
        }
    }

    @Test
    void lockByAnInterruptedThreadWaitsAndKeepsTheStatus() throws Exception {
        ReservedLock l = new ReservedLock();
        Holder h = new Holder(l, true).begin();
        AtomicBoolean got = new AtomicBoolean(), stillInterrupted = new AtomicBoolean();
        Thread t = new Thread(() -> {
            Thread.currentThread().interrupt();
            l.lock();
            got.set(true);
            stillInterrupted.set(Thread.currentThread().isInterrupted());
            l.unlock();
        });
        t.start();
        t.join(50);
        assertFalse(got.get());
        h.end();
        t.join();
        assertTrue(got.get());
        assertTrue(stillInterrupted.get());
    }

    @Test
    void conditionsAwaitAndSignalAcrossThreads() throws Exception {
        ReservedLock l = new ReservedLock();
        Condition c = l.newCondition();
        int[] state = {0};
        l.lock(); // reserves for this thread
        l.lock();
        l.lock();
        Thread t = new Thread(() -> {
            l.lock();
            try {
                state[0] = 1;
                c.signal();
            } finally {
                l.unlock();
            }
        });
        t.start();
        while (state[0] == 0) c.await(); // moves our three holds to the base lock, releases them
        assertEquals(3, l.getHoldCount());
        assertTrue(l.isHeldByCurrentThread());
        l.unlock();
        l.unlock();
        assertEquals(1, l.getHoldCount());
        l.unlock();
        assertFalse(l.isLocked());
        t.join();
        assertThrows(IllegalMonitorStateException.class, c::await);
        assertThrows(IllegalMonitorStateException.class, c::signal);
        // timed await times out (no signal), and keeps the hold
        l.lock();
        assertFalse(c.await(1, TimeUnit.MILLISECONDS));
        assertEquals(1, l.getHoldCount());
        l.unlock();
    }

    @Test
    void conditionSignalFromTheReserver() throws Exception {
        ReservedLock l = new ReservedLock();
        Condition c = l.newCondition();
        boolean[] ready = {false};
        CountDownLatch waiting = new CountDownLatch(1);
        // the waiter reserves the lock first, then waits
        Thread w = new Thread(() -> {
            l.lock();
            try {
                waiting.countDown();
                while (!ready[0]) c.awaitUninterruptibly();
            } finally {
                l.unlock();
            }
        });
        w.start();
        waiting.await();
        l.lock();
        ready[0] = true;
        c.signalAll();
        l.unlock();
        w.join();
        assertFalse(l.isLocked());
    }

    @Test
    void reReservesAfterKBaseAcquisitionsAndDoublesK() throws Exception {
        assumeTrue(ReservedLock.reservationAvailable());
        // longLived 0: every cancellation doubles K, however long the reservation lived
        ReservedLock l = ReservedLock.builder().reReserveAfter(4).longLived(0, TimeUnit.NANOSECONDS).build();
        Thread me = Thread.currentThread();
        new Holder(l, false).begin().end();           // another thread reserves it
        assertEquals(1, l.reReserveThreshold());
        l.lock();                                       // cancellation 1: K = 4
        l.unlock();
        assertEquals(1, l.cancellations());
        assertEquals(4, l.reReserveThreshold());
        assertNull(l.reservedBy());
        for (int i = 2; i <= 3; i++) {                  // base acquisitions 2, 3 of 4
            l.lock();
            l.unlock();
            assertNull(l.reservedBy());
        }
        l.lock();                                       // the 4th: reserves again
        assertSame(me, l.reservedBy());
        assertEquals(1, l.getHoldCount());
        l.unlock();
        assertEquals(2, l.reservations());
        inThread(() -> { l.lock(); l.unlock(); });     // cancellation 2: K = 8
        assertEquals(2, l.cancellations());
        assertEquals(8, l.reReserveThreshold());
        for (int i = 1; i <= 7; i++) {
            l.lock();
            l.unlock();
        }
        assertNull(l.reservedBy());
        l.lock();
        assertSame(me, l.reservedBy());
        l.unlock();
        inThread(() -> { l.lock(); l.unlock(); });
        assertEquals(16, l.reReserveThreshold());
        assertEquals(3, l.cancellations());
        assertTrue(l.cancellationNanos() > 0);
        assertTrue(ReservedLock.totalCancellations() >= 3);
    }

    @Test
    void longLivedReservationResetsK() throws Exception {
        assumeTrue(ReservedLock.reservationAvailable());
        ReservedLock l = ReservedLock.builder().reReserveAfter(2).longLived(1, TimeUnit.MILLISECONDS).build();
        new Holder(l, false).begin().end();
        l.lock();                                       // cancellation 1: K = 2
        l.unlock();
        l.lock();                                       // the 2nd in a row: reserved again
        l.unlock();
        assertSame(Thread.currentThread(), l.reservedBy());
        Thread.sleep(5);                                // the reservation lives past longLived
        inThread(() -> { l.lock(); l.unlock(); });     // cancellation 2: K back to 2, not 4
        assertEquals(2, l.cancellations());
        assertEquals(2, l.reReserveThreshold());
    }

    @Test
    void reReserveAfterZeroNeverReReserves() throws Exception {
        assumeTrue(ReservedLock.reservationAvailable());
        ReservedLock l = new ReservedLock(0);
        new Holder(l, false).begin().end();
        for (int i = 0; i < 1000; i++) {
            l.lock();
            l.unlock();
        }
        assertNull(l.reservedBy());
        assertEquals(1, l.cancellations());
    }

    @Test
    void fallbackNeverReserves() throws Exception {
        ReservedLock l = ReservedLock.builder().reservation(false).reReserveAfter(1).build();
        assertFalse(l.isReservable());
        for (int i = 0; i < 100; i++) {
            l.lock();
            l.lock();
            assertEquals(2, l.getHoldCount());
            l.unlock();
            l.unlock();
        }
        assertNull(l.reservedBy());
        inThread(() -> { l.lock(); l.unlock(); });
        assertEquals(0, l.cancellations());
        assertEquals(0, l.reservations());
    }

    @Test
    void reserverThatDiedHoldingNothingIsCancelled() throws Exception {
        assumeTrue(ReservedLock.reservationAvailable());
        ReservedLock l = new ReservedLock();
        Holder h = new Holder(l, false).begin();
        h.end();
        assertFalse(h.isAlive());
        assertSame(h, l.reservedBy());
        assertTrue(l.tryLock(1, TimeUnit.SECONDS));
        assertNull(l.reservedBy());
        l.unlock();
    }

    @Test
    void reentrantHoldIsKeptThroughACancellationAttempt() throws Exception {
        assumeTrue(ReservedLock.reservationAvailable());
        ReservedLock l = new ReservedLock();
        l.lock();
        l.lock();
        AtomicBoolean got = new AtomicBoolean();
        Thread t = new Thread(() -> {
            l.lock();
            got.set(true);
            l.unlock();
        });
        t.start();
        t.join(30);
        assertFalse(got.get());
        assertEquals(2, l.getHoldCount());
        l.unlock();
        t.join(30);
        assertFalse(got.get());
        assertTrue(l.isHeldByCurrentThread());
        l.unlock();
        t.join();
        assertTrue(got.get());
    }
}
