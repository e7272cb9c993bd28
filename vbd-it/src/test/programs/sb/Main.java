import dev.vbd.Relaxed;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Store buffering: {@code x = 1; r1 = y} || {@code y = 1; r2 = x}. Sequential consistency forbids
 * r1 == 0 && r2 == 0; x86's store buffer lets stock Java show it.
 *
 * <p>Harness in the manner of jcstress's stride mode: each round allocates a batch of fresh
 * state (objects, small arrays, or a set of static-field slots), two actor threads start on a
 * {@link CyclicBarrier}, meet once more on a spin gate (see {@link #meet}) so that they start
 * within nanoseconds of each other, and walk the batch concurrently; the main thread then
 * counts the outcomes.
 *
 * <p>Usage: {@code Main TRIALS BATCH SHAPE...}, where a shape written {@code SHAPE~MAX} runs
 * up to MAX trials but stops after the first round that shows the forbidden outcome (for
 * tests that look for it); prints one line per shape:
 * {@code SB shape=S trials=N forbidden=F outcomes=00:a,01:b,10:c,11:d rounds=R unpaired=U}
 * (outcome 11 needs the walks to overlap: its count shows how much they raced).
 */
public class Main {
    abstract static class Shape {
        final String name;
        int[] r1, r2;

        Shape(String name) { this.name = name; }

        /** Fresh state for n trials; returns how many trials the round really holds. */
        abstract int allocate(int n);
        abstract void actor1(int n);
        abstract void actor2(int n);

        int prepare(int n) {
            int m = allocate(n);
            if (r1 == null || r1.length != m) {
                r1 = new int[m];
                r2 = new int[m];
            }
            return m;
        }
    }

    static final class Pair { int x, y; }

    static final class Instance extends Shape {
        Pair[] states;
        Instance() { super("instance"); }
        int allocate(int n) { states = new Pair[n]; for (int i = 0; i < n; i++) states[i] = new Pair(); return n; }
        void actor1(int n) { Pair[] s = states; int[] r = r1; for (int i = 0; i < n; i++) { Pair p = s[i]; p.x = 1; r[i] = p.y; } }
        void actor2(int n) { Pair[] s = states; int[] r = r2; for (int i = 0; i < n; i++) { Pair p = s[i]; p.y = 1; r[i] = p.x; } }
    }

    /** The same walk with both actors relaxed by annotation: plain accesses, stock Java's behaviour. */
    static final class RelaxedInstance extends Shape {
        Pair[] states;
        RelaxedInstance() { super("relaxed-instance"); }
        int allocate(int n) { states = new Pair[n]; for (int i = 0; i < n; i++) states[i] = new Pair(); return n; }
        @Relaxed("litmus: must show the store buffer again")
        void actor1(int n) { Pair[] s = states; int[] r = r1; for (int i = 0; i < n; i++) { Pair p = s[i]; p.x = 1; r[i] = p.y; } }
        @Relaxed("litmus: must show the store buffer again")
        void actor2(int n) { Pair[] s = states; int[] r = r2; for (int i = 0; i < n; i++) { Pair p = s[i]; p.y = 1; r[i] = p.x; } }
    }

    static final class RelaxedIntArray extends Shape {
        int[][] a;
        RelaxedIntArray() { super("relaxed-int[]"); }
        int allocate(int n) { a = new int[n][]; for (int i = 0; i < n; i++) a[i] = new int[2]; return n; }
        @Relaxed
        void actor1(int n) { int[][] s = a; int[] r = r1; for (int i = 0; i < n; i++) { int[] p = s[i]; p[0] = 1; r[i] = p[1]; } }
        @Relaxed
        void actor2(int n) { int[][] s = a; int[] r = r2; for (int i = 0; i < n; i++) { int[] p = s[i]; p[1] = 1; r[i] = p[0]; } }
    }

    static final class Statics extends Shape {
        Statics() { super("static"); }
        int allocate(int n) { StaticSlots.reset(); return StaticSlots.SLOTS; }
        void actor1(int n) { StaticSlots.walk1(r1); }
        void actor2(int n) { StaticSlots.walk2(r2); }
    }

    static final class BooleanArrays extends Shape {
        boolean[][] a;
        BooleanArrays() { super("boolean[]"); }
        int allocate(int n) { a = new boolean[n][]; for (int i = 0; i < n; i++) a[i] = new boolean[2]; return n; }
        void actor1(int n) { boolean[][] s = a; int[] r = r1; for (int i = 0; i < n; i++) { boolean[] p = s[i]; p[0] = true; r[i] = p[1] ? 1 : 0; } }
        void actor2(int n) { boolean[][] s = a; int[] r = r2; for (int i = 0; i < n; i++) { boolean[] p = s[i]; p[1] = true; r[i] = p[0] ? 1 : 0; } }
    }

    static final class ByteArrays extends Shape {
        byte[][] a;
        ByteArrays() { super("byte[]"); }
        int allocate(int n) { a = new byte[n][]; for (int i = 0; i < n; i++) a[i] = new byte[2]; return n; }
        void actor1(int n) { byte[][] s = a; int[] r = r1; for (int i = 0; i < n; i++) { byte[] p = s[i]; p[0] = 1; r[i] = p[1]; } }
        void actor2(int n) { byte[][] s = a; int[] r = r2; for (int i = 0; i < n; i++) { byte[] p = s[i]; p[1] = 1; r[i] = p[0]; } }
    }

    static final class CharArrays extends Shape {
        char[][] a;
        CharArrays() { super("char[]"); }
        int allocate(int n) { a = new char[n][]; for (int i = 0; i < n; i++) a[i] = new char[2]; return n; }
        void actor1(int n) { char[][] s = a; int[] r = r1; for (int i = 0; i < n; i++) { char[] p = s[i]; p[0] = 1; r[i] = p[1]; } }
        void actor2(int n) { char[][] s = a; int[] r = r2; for (int i = 0; i < n; i++) { char[] p = s[i]; p[1] = 1; r[i] = p[0]; } }
    }

    static final class ShortArrays extends Shape {
        short[][] a;
        ShortArrays() { super("short[]"); }
        int allocate(int n) { a = new short[n][]; for (int i = 0; i < n; i++) a[i] = new short[2]; return n; }
        void actor1(int n) { short[][] s = a; int[] r = r1; for (int i = 0; i < n; i++) { short[] p = s[i]; p[0] = 1; r[i] = p[1]; } }
        void actor2(int n) { short[][] s = a; int[] r = r2; for (int i = 0; i < n; i++) { short[] p = s[i]; p[1] = 1; r[i] = p[0]; } }
    }

    static final class IntArrays extends Shape {
        int[][] a;
        IntArrays() { super("int[]"); }
        int allocate(int n) { a = new int[n][]; for (int i = 0; i < n; i++) a[i] = new int[2]; return n; }
        void actor1(int n) { int[][] s = a; int[] r = r1; for (int i = 0; i < n; i++) { int[] p = s[i]; p[0] = 1; r[i] = p[1]; } }
        void actor2(int n) { int[][] s = a; int[] r = r2; for (int i = 0; i < n; i++) { int[] p = s[i]; p[1] = 1; r[i] = p[0]; } }
    }

    static final class LongArrays extends Shape {
        long[][] a;
        LongArrays() { super("long[]"); }
        int allocate(int n) { a = new long[n][]; for (int i = 0; i < n; i++) a[i] = new long[2]; return n; }
        void actor1(int n) { long[][] s = a; int[] r = r1; for (int i = 0; i < n; i++) { long[] p = s[i]; p[0] = 1; r[i] = (int) p[1]; } }
        void actor2(int n) { long[][] s = a; int[] r = r2; for (int i = 0; i < n; i++) { long[] p = s[i]; p[1] = 1; r[i] = (int) p[0]; } }
    }

    static final class FloatArrays extends Shape {
        float[][] a;
        FloatArrays() { super("float[]"); }
        int allocate(int n) { a = new float[n][]; for (int i = 0; i < n; i++) a[i] = new float[2]; return n; }
        void actor1(int n) { float[][] s = a; int[] r = r1; for (int i = 0; i < n; i++) { float[] p = s[i]; p[0] = 1f; r[i] = (int) p[1]; } }
        void actor2(int n) { float[][] s = a; int[] r = r2; for (int i = 0; i < n; i++) { float[] p = s[i]; p[1] = 1f; r[i] = (int) p[0]; } }
    }

    static final class DoubleArrays extends Shape {
        double[][] a;
        DoubleArrays() { super("double[]"); }
        int allocate(int n) { a = new double[n][]; for (int i = 0; i < n; i++) a[i] = new double[2]; return n; }
        void actor1(int n) { double[][] s = a; int[] r = r1; for (int i = 0; i < n; i++) { double[] p = s[i]; p[0] = 1d; r[i] = (int) p[1]; } }
        void actor2(int n) { double[][] s = a; int[] r = r2; for (int i = 0; i < n; i++) { double[] p = s[i]; p[1] = 1d; r[i] = (int) p[0]; } }
    }

    static final Object MARK = new Object();

    static final class RefArrays extends Shape {
        Object[][] a;
        RefArrays() { super("Object[]"); }
        int allocate(int n) { a = new Object[n][]; for (int i = 0; i < n; i++) a[i] = new Object[2]; return n; }
        void actor1(int n) { Object[][] s = a; int[] r = r1; Object m = MARK; for (int i = 0; i < n; i++) { Object[] p = s[i]; p[0] = m; r[i] = p[1] == null ? 0 : 1; } }
        void actor2(int n) { Object[][] s = a; int[] r = r2; Object m = MARK; for (int i = 0; i < n; i++) { Object[] p = s[i]; p[1] = m; r[i] = p[0] == null ? 0 : 1; } }
    }

    static Shape shape(String name) {
        switch (name) {
            case "instance": return new Instance();
            case "static": return new Statics();
            case "boolean[]": return new BooleanArrays();
            case "byte[]": return new ByteArrays();
            case "char[]": return new CharArrays();
            case "short[]": return new ShortArrays();
            case "int[]": return new IntArrays();
            case "long[]": return new LongArrays();
            case "float[]": return new FloatArrays();
            case "double[]": return new DoubleArrays();
            case "Object[]": return new RefArrays();
            case "relaxed-instance": return new RelaxedInstance();
            case "relaxed-int[]": return new RelaxedIntArray();
            case "config-instance": return new ConfigRelaxedInstance();
            case "config-int[]": return new ConfigRelaxedIntArray();
            default:
                Shape trust = Trust.shape(name);
                if (trust != null) return trust;
                throw new IllegalArgumentException("unknown shape '" + name + "'");
        }
    }

    /** How long an actor insists on starting together with the other one before it starts anyway. */
    static final long PAIRING_NANOS = 20_000_000L;

    /**
     * Waits until both actors are here, spinning, so that they start their walks together. An
     * actor that has spun a while withdraws before it yields its core and arrives again after:
     * an actor may pass only while the other one is spinning too, not while it sits descheduled
     * in a yield (on a busy machine the walks would then rarely overlap). After
     * {@link #PAIRING_NANOS} it stops withdrawing, so that an overloaded machine slows a round
     * down by that much at most; such rounds are counted as unpaired.
     *
     * @return whether this actor gave up insisting
     */
    static boolean meet(AtomicInteger gate, int both) {
        int alone = both - 1;
        long giveUp = System.nanoTime() + PAIRING_NANOS;
        boolean insisting = true;
        gate.incrementAndGet();
        for (int spins = 1; ; spins++) {
            if (gate.get() >= both) return !insisting;
            if ((spins & 0x3fff) != 0) {
                Thread.onSpinWait();
            } else if (insisting && System.nanoTime() > giveUp) {
                insisting = false;
            } else if (!insisting) {
                Thread.yield();
            } else if (gate.compareAndSet(alone, alone - 1)) {
                Thread.yield();
                gate.incrementAndGet();
            }
        }
    }

    /** Runs rounds until {@code trials} trials are done (or, if asked, one shows r1=0,r2=0); returns the counts of outcomes 00, 01, 10, 11, of rounds, of unpaired starts. */
    static long[] run(Shape shape, long trials, int batch, boolean untilForbidden) throws Exception {
        long rounds = 0;
        CyclicBarrier start = new CyclicBarrier(3);
        CyclicBarrier done = new CyclicBarrier(3);
        AtomicInteger gate = new AtomicInteger();
        AtomicInteger unpaired = new AtomicInteger();
        int[] size = new int[1];
        boolean[] stop = new boolean[1];
        List<Throwable> failures = new ArrayList<>();
        Thread[] actors = new Thread[2];
        for (int k = 0; k < 2; k++) {
            final int actor = k;
            actors[k] = new Thread(() -> {
                try {
                    for (int round = 1; ; round++) {
                        start.await();
                        if (stop[0]) return;
                        if (meet(gate, 2 * round)) unpaired.incrementAndGet();
                        if (actor == 0) shape.actor1(size[0]); else shape.actor2(size[0]);
                        done.await();
                    }
                } catch (Throwable t) {
                    synchronized (failures) { failures.add(t); }
                    start.reset();
                    done.reset();
                }
            }, "actor" + (k + 1));
            actors[k].setDaemon(true);
            actors[k].start();
        }
        long[] counts = new long[4];
        long total = 0;
        while (total < trials && !(untilForbidden && counts[0] > 0)) {
            int n = shape.prepare(batch);
            size[0] = n;
            start.await();
            done.await();
            int[] r1 = shape.r1, r2 = shape.r2;
            for (int i = 0; i < n; i++) {
                if ((r1[i] | r2[i]) >>> 1 != 0) throw new IllegalStateException(shape.name + ": impossible value r1=" + r1[i] + " r2=" + r2[i]);
                counts[r1[i] * 2 + r2[i]]++;
            }
            total += n;
            rounds++;
        }
        stop[0] = true;
        start.await();
        for (Thread t : actors) t.join();
        if (!failures.isEmpty()) throw new IllegalStateException(shape.name + ": an actor failed", failures.get(0));
        return new long[] {counts[0], counts[1], counts[2], counts[3], rounds, unpaired.get()};
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: Main TRIALS BATCH SHAPE[~MAX]...");
            System.exit(2);
        }
        long trials = Long.parseLong(args[0]);
        int batch = Integer.parseInt(args[1]);
        for (int k = 2; k < args.length; k++) {
            // SHAPE~MAX: up to MAX trials, stopping after the first round that shows r1=0,r2=0
            String[] spec = args[k].split("~", 2);
            Shape shape = shape(spec[0]);
            boolean untilForbidden = spec.length == 2;
            long[] c = run(shape, untilForbidden ? Long.parseLong(spec[1]) : trials, batch, untilForbidden);
            System.out.println("SB shape=" + shape.name + " trials=" + (c[0] + c[1] + c[2] + c[3]) + " forbidden=" + c[0]
                    + " outcomes=00:" + c[0] + ",01:" + c[1] + ",10:" + c[2] + ",11:" + c[3] + " rounds=" + c[4] + " unpaired=" + c[5]);
        }
    }
}

/** Not annotated: relaxed only through a {@code --relaxed} config file naming this class. */
final class ConfigRelaxedInstance extends Main.Shape {
    Main.Pair[] states;
    ConfigRelaxedInstance() { super("config-instance"); }
    int allocate(int n) { states = new Main.Pair[n]; for (int i = 0; i < n; i++) states[i] = new Main.Pair(); return n; }
    void actor1(int n) { Main.Pair[] s = states; int[] r = r1; for (int i = 0; i < n; i++) { Main.Pair p = s[i]; p.x = 1; r[i] = p.y; } }
    void actor2(int n) { Main.Pair[] s = states; int[] r = r2; for (int i = 0; i < n; i++) { Main.Pair p = s[i]; p.y = 1; r[i] = p.x; } }
}

/** Not annotated: relaxed only through a {@code --relaxed} config file naming this class. */
final class ConfigRelaxedIntArray extends Main.Shape {
    int[][] a;
    ConfigRelaxedIntArray() { super("config-int[]"); }
    int allocate(int n) { a = new int[n][]; for (int i = 0; i < n; i++) a[i] = new int[2]; return n; }
    void actor1(int n) { int[][] s = a; int[] r = r1; for (int i = 0; i < n; i++) { int[] p = s[i]; p[0] = 1; r[i] = p[1]; } }
    void actor2(int n) { int[][] s = a; int[] r = r2; for (int i = 0; i < n; i++) { int[] p = s[i]; p[1] = 1; r[i] = p[0]; } }
}
