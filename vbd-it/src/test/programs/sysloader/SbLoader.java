import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A system class loader (-Djava.system.class.loader=SbLoader) that runs store buffering on its own
 * fields: {@code x = 1; r1 = y} || {@code y = 1; r2 = x}. The JVM loads this class before any agent
 * starts, so the race is in a class no agent ever saw. Each trial's state is an instance of the
 * loader itself.
 *
 * <p>Rounds in the manner of jcstress's strides: a batch of fresh instances, two actors released by a
 * barrier and a spin gate so that their walks overlap, then the main thread counts the outcomes.
 */
public final class SbLoader extends URLClassLoader {
    static final int BATCH = 256;

    int x, y;

    public SbLoader(ClassLoader parent) {
        super(new URL[0], parent);
    }

    // -javaagent needs it of a custom system class loader: the agent's jar is loaded through it
    void appendToClassPathForInstrumentation(String path) throws MalformedURLException {
        addURL(Path.of(path).toUri().toURL());
    }

    /** Returns the counts of outcomes 00, 01, 10 and 11 (r1, r2) over at least {@code trials} trials. */
    static long[] storeBuffering(long trials) throws Exception {
        SbLoader[][] states = new SbLoader[1][];
        int[] r1 = new int[BATCH], r2 = new int[BATCH];
        boolean[] stop = new boolean[1];
        CyclicBarrier start = new CyclicBarrier(3), done = new CyclicBarrier(3);
        AtomicInteger gate = new AtomicInteger();
        Thread[] actors = new Thread[2];
        for (int k = 0; k < 2; k++) {
            final int actor = k;
            actors[k] = new Thread(() -> {
                try {
                    for (int round = 1; ; round++) {
                        start.await();
                        if (stop[0]) return;
                        gate.incrementAndGet();
                        // a spin gate: the barrier alone releases the actors microseconds apart
                        while (gate.get() < 2 * round) Thread.onSpinWait();
                        SbLoader[] s = states[0];
                        if (actor == 0) {
                            for (int i = 0; i < BATCH; i++) { SbLoader p = s[i]; p.x = 1; r1[i] = p.y; }
                        } else {
                            for (int i = 0; i < BATCH; i++) { SbLoader p = s[i]; p.y = 1; r2[i] = p.x; }
                        }
                        done.await();
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, "actor" + (k + 1));
            actors[k].setDaemon(true);
            actors[k].start();
        }
        long[] counts = new long[4];
        for (long total = 0; total < trials; total += BATCH) {
            SbLoader[] s = new SbLoader[BATCH];
            for (int i = 0; i < BATCH; i++) s[i] = new SbLoader(null);
            states[0] = s;
            start.await();
            done.await();
            for (int i = 0; i < BATCH; i++) counts[r1[i] * 2 + r2[i]]++;
        }
        stop[0] = true;
        start.await();
        for (Thread t : actors) t.join();
        return counts;
    }
}
