package dev.vbd.locks.bench;

import dev.vbd.locks.ReservedLock;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The cost of one cancellation, with a second thread present: an owner thread locks and unlocks a
 * ReservedLock continuously; an intruder takes it once every millisecond, each time cancelling
 * the owner's reservation (which the owner then makes again after K base-mode acquisitions: the
 * reservations live about 1 ms, so K stays at its start). Prints the cancellations, their mean
 * time (from winning the token to base mode, ReservedLock's own timer), the intruder's mean
 * lock() latency, and the owner's ns per lock/unlock pair. Arguments: seconds (default 10).
 */
public final class CancellationCost {
    static int counter;

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        if (!ReservedLock.reservationAvailable()) throw new IllegalStateException(ReservedLock.reservationUnavailableReason());
        for (int round = 0; round < 2; round++) { // round 0 warms up
            ReservedLock lock = new ReservedLock();
            AtomicBoolean stop = new AtomicBoolean();
            long[] ownerOps = {0};
            Thread owner = new Thread(() -> {
                long n = 0;
                while (!stop.get()) {
                    for (int i = 0; i < 1000; i++) {
                        lock.lock();
                        counter++;
                        lock.unlock();
                    }
                    n += 1000;
                }
                ownerOps[0] = n;
            });
            long barrier0 = ReservedLock.totalBarrierNanos();
            long t0 = System.nanoTime();
            owner.start();
            Thread.sleep(10);
            long intruderLockNanos = 0, intrusions = 0, cancelledIntrusions = 0, cancelledLockNanos = 0;
            long[] latencies = new long[1 << 16];
            int nlat = 0;
            long end = t0 + (round == 0 ? 2 : seconds) * 1_000_000_000L;
            while (System.nanoTime() < end) {
                long c0 = lock.cancellations();
                long a = System.nanoTime();
                lock.lock();
                long b = System.nanoTime();
                counter++;
                lock.unlock();
                intrusions++;
                intruderLockNanos += b - a;
                if (lock.cancellations() != c0) {
                    cancelledIntrusions++;
                    cancelledLockNanos += b - a;
                    if (nlat < latencies.length) latencies[nlat++] = b - a;
                }
                Thread.sleep(1);
            }
            stop.set(true);
            owner.join();
            long wall = System.nanoTime() - t0;
            if (round == 0) continue;
            java.util.Arrays.sort(latencies, 0, nlat);
            System.out.printf("java %s, %d s: %d intrusions, %d cancellations (%d reservations), mean cancellation %.0f ns "
                            + "(timer), mean intruder lock() %.0f ns (%.0f ns when it cancelled; median %d ns, 90th percentile %d ns),"
                            + " owner %.2f ns per lock/unlock; mean membarrier %.0f ns%n",
                    System.getProperty("java.version"), seconds, intrusions, lock.cancellations(), lock.reservations(),
                    (double) lock.cancellationNanos() / lock.cancellations(), (double) intruderLockNanos / intrusions,
                    cancelledIntrusions == 0 ? Double.NaN : (double) cancelledLockNanos / cancelledIntrusions,
                    nlat == 0 ? -1 : latencies[nlat / 2], nlat == 0 ? -1 : latencies[nlat * 9 / 10],
                    (double) wall / ownerOps[0], (double) (ReservedLock.totalBarrierNanos() - barrier0) / lock.cancellations());
        }
    }
}
