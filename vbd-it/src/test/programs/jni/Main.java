import java.lang.reflect.Method;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Store buffering ({@code x = 1; r1 = y} || {@code y = 1; r2 = x}) on the elements of a Java
 * array, run by native code: each actor hands the array to {@code libsbnative}, which stores and
 * loads through the JNI's direct pointer to its elements. Usage: {@code Main TRIALS}, with the
 * library on {@code java.library.path}; prints {@code SB shape=native trials=N forbidden=F}.
 * {@code Main jni-defined TRIALS} runs it instead in Java, on the fields of {@link SbFields} as defined a
 * second time by the JNI's {@code DefineClass}; prints {@code SB shape=jni-defined trials=N forbidden=F}.
 * {@code Main unsafe-defined TRIALS}: the same, defined by {@code jdk.internal.misc.Unsafe.defineClass}
 * (run with {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED}); prints {@code shape=unsafe-defined}.
 *
 * <p>Each round allocates a fresh array; two actor threads start on a barrier, meet again on a
 * spin gate so that they run within nanoseconds of each other, and walk it.
 */
public class Main {
    static final int BATCH = 1000;

    /** For each {@code i < n}: {@code s[2i + mine] = 1; r[i] = s[2i + 1 - mine]}, in C. */
    static native void actor(int[] s, int n, int mine, int[] r);

    /** JNI's {@code DefineClass(name, loader, bytes)}. */
    static native Class<?> defineNatively(String name, ClassLoader loader, byte[] bytes);

    public static void main(String[] args) throws Exception {
        System.loadLibrary("sbnative");
        if (args[0].equals("jni-defined") || args[0].equals("unsafe-defined")) {
            defined(args[0].equals("jni-defined"), Long.parseLong(args[1]));
            return;
        }
        int[][] state = new int[1][];
        storeBuffering("native", Long.parseLong(args[0]), () -> state[0] = new int[2 * BATCH],
                (id, r) -> actor(state[0], BATCH, id, r));
    }

    interface Actor {
        /** Actor {@code id} (0 or 1) runs its side of one batch, its loads into {@code r}. */
        void run(int id, int[] r) throws Exception;
    }

    interface Round {
        /** Fresh state for the next batch, before the actors start on it. */
        void allocate() throws Exception;
    }

    /** Runs {@code trials} store-buffering trials in batches and prints {@code SB shape=SHAPE trials=N forbidden=F}. */
    static void storeBuffering(String shape, long trials, Round round, Actor actor) throws Exception {
        int[] r1 = new int[BATCH], r2 = new int[BATCH];
        CyclicBarrier start = new CyclicBarrier(3), end = new CyclicBarrier(3);
        AtomicInteger gate = new AtomicInteger();
        long rounds = (trials + BATCH - 1) / BATCH;
        Thread[] actors = new Thread[2];
        for (int t = 0; t < 2; t++) {
            int id = t;
            actors[t] = new Thread(() -> {
                try {
                    for (long n = 0; n < rounds; n++) {
                        start.await();
                        meet(gate, n);
                        actor.run(id, id == 0 ? r1 : r2);
                        end.await();
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            actors[t].start();
        }
        long forbidden = 0, done = 0;
        for (long n = 0; n < rounds; n++) {
            round.allocate();
            start.await();
            end.await();
            for (int i = 0; i < BATCH; i++) if (r1[i] == 0 && r2[i] == 0) forbidden++;
            done += BATCH;
        }
        for (Thread t : actors) t.join();
        System.out.println("SB shape=" + shape + " trials=" + done + " forbidden=" + forbidden);
    }

    /** Through JNI's {@code DefineClass}, or through {@code jdk.internal.misc.Unsafe.defineClass} (exported to this program). */
    static void defined(boolean natively, long trials) throws Exception {
        byte[] bytes;
        try (var in = Main.class.getResourceAsStream("SbFields.class")) {
            bytes = in.readAllBytes();
        }
        ClassLoader loader = new ClassLoader(Main.class.getClassLoader()) {};
        Class<?> c;
        if (natively) {
            c = defineNatively("SbFields", loader, bytes);
        } else {
            Class<?> unsafe = Class.forName("jdk.internal.misc.Unsafe");
            Object u = unsafe.getMethod("getUnsafe").invoke(null);
            c = (Class<?>) unsafe.getMethod("defineClass", String.class, byte[].class, int.class, int.class, ClassLoader.class,
                    java.security.ProtectionDomain.class).invoke(u, "SbFields", bytes, 0, bytes.length, loader, null);
        }
        Method allocate = c.getMethod("allocate", int.class);
        Method[] actor = {c.getMethod("actor1", int.class, int[].class), c.getMethod("actor2", int.class, int[].class)};
        storeBuffering((natively ? "jni" : "unsafe") + "-defined", trials, () -> allocate.invoke(null, BATCH),
                (id, r) -> actor[id].invoke(null, BATCH, r));
    }

    /** Both actors arrive, then both leave: a spin gate much tighter than the barrier. */
    static void meet(AtomicInteger gate, long round) {
        int target = (int) (2 * (round + 1));
        gate.incrementAndGet();
        while (gate.get() < target) Thread.onSpinWait();
    }
}
