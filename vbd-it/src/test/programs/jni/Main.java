import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Store buffering ({@code x = 1; r1 = y} || {@code y = 1; r2 = x}) on the elements of a Java
 * array, run by native code: each actor hands the array to {@code libsbnative}, which stores and
 * loads through the JNI's direct pointer to its elements. Usage: {@code Main TRIALS}, with the
 * library on {@code java.library.path}; prints {@code SB shape=native trials=N forbidden=F}.
 *
 * <p>Each round allocates a fresh array; two actor threads start on a barrier, meet again on a
 * spin gate so that they run within nanoseconds of each other, and walk it.
 */
public class Main {
    static final int BATCH = 1000;

    /** For each {@code i < n}: {@code s[2i + mine] = 1; r[i] = s[2i + 1 - mine]}, in C. */
    static native void actor(int[] s, int n, int mine, int[] r);

    public static void main(String[] args) throws Exception {
        System.loadLibrary("sbnative");
        long trials = Long.parseLong(args[0]);
        int[] r1 = new int[BATCH], r2 = new int[BATCH];
        int[][] state = new int[1][];
        CyclicBarrier start = new CyclicBarrier(3), end = new CyclicBarrier(3);
        AtomicInteger gate = new AtomicInteger();
        long rounds = (trials + BATCH - 1) / BATCH;
        Thread[] actors = new Thread[2];
        for (int t = 0; t < 2; t++) {
            int id = t;
            actors[t] = new Thread(() -> {
                try {
                    for (long round = 0; round < rounds; round++) {
                        start.await();
                        meet(gate, round);
                        actor(state[0], BATCH, id, id == 0 ? r1 : r2);
                        end.await();
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            actors[t].start();
        }
        long forbidden = 0, done = 0;
        for (long round = 0; round < rounds; round++) {
            state[0] = new int[2 * BATCH];
            start.await();
            end.await();
            for (int i = 0; i < BATCH; i++) if (r1[i] == 0 && r2[i] == 0) forbidden++;
            done += BATCH;
        }
        for (Thread t : actors) t.join();
        System.out.println("SB shape=native trials=" + done + " forbidden=" + forbidden);
    }

    /** Both actors arrive, then both leave: a spin gate much tighter than the barrier. */
    static void meet(AtomicInteger gate, long round) {
        int target = (int) (2 * (round + 1));
        gate.incrementAndGet();
        while (gate.get() < target) Thread.onSpinWait();
    }
}
