package dev.vbd.locks.bench;

import dev.vbd.locks.ReservedLock;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Two threads lock and unlock one ReservedLock continuously for a few seconds: prints each
 * thread's operations, the cancellations and reservations, and the mean cancellation time. It
 * shows how the reservation shares the lock under real contention (the JMH score alone does not).
 */
public final class ContentionProbe {
    static long counter; // plain, guarded by the lock: must equal the operations

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        for (int round = 0; round < 2; round++) {
            ReservedLock lock = new ReservedLock();
            counter = 0;
            AtomicBoolean stop = new AtomicBoolean();
            long[] ops = new long[2];
            Thread[] ts = new Thread[2];
            for (int k = 0; k < 2; k++) {
                int id = k;
                ts[k] = new Thread(() -> {
                    long n = 0;
                    while (!stop.get()) {
                        for (int i = 0; i < 100; i++) {
                            lock.lock();
                            counter++;
                            lock.unlock();
                        }
                        n += 100;
                    }
                    ops[id] = n;
                });
            }
            long t0 = System.nanoTime();
            for (Thread t : ts) t.start();
            Thread.sleep(seconds * 1000L);
            stop.set(true);
            for (Thread t : ts) t.join();
            double ns = System.nanoTime() - t0;
            if (counter != ops[0] + ops[1]) throw new AssertionError("lost updates: " + counter + " != " + (ops[0] + ops[1]));
            if (round == 0) continue;
            System.out.printf("java %s, %d s: ops %d + %d (%.2f ns/op overall), %d cancellations, %d reservations, "
                            + "mean cancellation %.0f ns, final K %d%n",
                    System.getProperty("java.version"), seconds, ops[0], ops[1], ns / (ops[0] + ops[1]),
                    lock.cancellations(), lock.reservations(),
                    lock.cancellations() == 0 ? Double.NaN : (double) lock.cancellationNanos() / lock.cancellations(),
                    lock.reReserveThreshold());
        }
    }
}
