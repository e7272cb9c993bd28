package dev.vbd.locks;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The cost of membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) alone, with no other thread of the
 * process running and with one other thread busy on another CPU (which the barrier must
 * interrupt). Run from bench.sh --membarrier.
 */
public final class MembarrierProbe {
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        if (!Membarrier.AVAILABLE) throw new IllegalStateException(Membarrier.UNAVAILABLE_REASON);
        int n = 200_000;
        for (int round = 0; round < 2; round++) {
            System.out.printf("java %s: membarrier alone %.0f ns", System.getProperty("java.version"), perCall(n));
            AtomicBoolean stop = new AtomicBoolean();
            Thread spinner = new Thread(() -> { // busy without PAUSE, as a lock owner is
                long x = 0;
                while (!stop.get()) x = x * 31 + 7;
                sink = x;
            });
            spinner.start();
            Thread.sleep(10);
            System.out.printf(", with a second thread busy on another CPU %.0f ns%n", perCall(n / 10));
            stop.set(true);
            spinner.join();
        }
    }

    private static double perCall(int n) {
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) Membarrier.barrier();
        return (double) (System.nanoTime() - t0) / n;
    }
}
