import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.lang.reflect.Field;
import java.util.concurrent.CyclicBarrier;

/**
 * False sharing planted among decoys, for vbd layout. Two workers run in rounds that start together
 * (a barrier), so that they touch the shared lines in turn however the machine schedules them.
 * Each planted group is allocated between gaps, so that no two groups share a line.
 *
 * Planted: Pair.a and Pair.b (one worker each); Counter.value of two Counters allocated one after
 * the other; elements 0 and 1 of the long[] a Slots holds (and, beside them, the Slots object whose
 * field the workers read); Main.left and Main.right (statics); and Shared.hits,
 * which both workers increment under a lock: true sharing.
 * Decoys: Padded.a and Padded.b, 16 longs apart; spread[0] and spread[16]; ReadMostly.limit,
 * which both workers read and nobody writes after its constructor; and a Counter each worker
 * allocates for itself.
 *
 * Modes: planted (the run), offsets (where Pair.b lies from Pair.a, and where Counter.value lies in
 * its object), reflect (reflection, serialization and Unsafe on the classes a layout names),
 * annotations (Pair.a's, as reflection shows them), strided (a Slots' array as the program sees it,
 * and its length as reflection sees it), atomics (false sharing that only the JDK's code
 * touches: two AtomicLongs allocated one after the other, one per worker).
 */
public class Main {
    static final class Pair implements Serializable {
        long a;
        long b;
    }

    static final class Counter {
        long value;
    }

    static final class Shared {
        long hits;
    }

    /** Per-worker slots in an array that a private field holds, used only through this class. */
    static final class Slots {
        private final long[] counts;

        Slots(int n) {
            counts = new long[n];
        }

        void add(int i) {
            counts[i]++;
        }

        long get(int i) {
            return counts[i];
        }
    }

    static final class Padded {
        long a;
        long p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15, p16;
        long b;
    }

    static final class ReadMostly {
        final long limit;

        ReadMostly(long limit) {
            this.limit = limit;
        }
    }

    static long left;
    static long[] gap1;
    static long[] gap2;
    static long[] gap3;
    static long[] gap4;
    static long[] gap5;
    static long[] gap6;
    static long right;

    static final int ROUNDS = 2_000;
    static final int STEPS = 50;

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "planted" -> planted();
            case "offsets" -> offsets();
            case "reflect" -> reflect();
            case "annotations" -> System.out.println("Pair.a " + java.util.Arrays.toString(Pair.class.getDeclaredField("a").getAnnotations()));
            case "atomics" -> atomics();
            case "strided" -> {
                Slots slots = new Slots(2);
                slots.add(1);
                Field f = Slots.class.getDeclaredField("counts");
                f.setAccessible(true);
                System.out.println("slots " + slots.get(0) + " " + slots.get(1) + ", length by reflection " + ((long[]) f.get(slots)).length);
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    static long[] gap() {
        return new long[32];
    }

    static long[] spread() {
        return new long[32];
    }

    static void planted() throws Exception {
        gap1 = gap();
        Pair pair = new Pair();
        gap2 = gap();
        Counter[] counters = {new Counter(), new Counter()};
        gap3 = gap();
        Slots slots = new Slots(2);
        gap4 = gap();
        long[] spread = spread();
        gap5 = gap();
        Shared shared = new Shared();
        gap6 = gap();
        Padded padded = new Padded();
        long[] gap7 = gap();
        ReadMostly config = new ReadMostly(STEPS);
        long[] gap8 = gap();
        CyclicBarrier barrier = new CyclicBarrier(2);
        long[] sums = new long[2 * 16];
        Thread[] workers = new Thread[2];
        for (int t = 0; t < 2; t++) {
            int me = t;
            workers[t] = new Thread(() -> {
                Counter own = new Counter();
                Counter mine = counters[me];
                long sum = 0;
                try {
                    for (int r = 0; r < ROUNDS; r++) {
                        barrier.await();
                        for (int s = 0; s < config.limit; s++) {
                            if (me == 0) {
                                pair.a++;
                                padded.a++;
                                left++;
                            } else {
                                pair.b++;
                                padded.b++;
                                right++;
                            }
                            mine.value++;
                            slots.add(me);
                            spread[me * 16]++;
                            own.value++;
                            synchronized (shared) {
                                shared.hits++;
                            }
                        }
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
                sum += own.value;
                sums[me * 16] = sum;
            }, "worker-" + t);
        }
        for (Thread w : workers) w.start();
        for (Thread w : workers) w.join();
        long n = (long) ROUNDS * STEPS;
        boolean ok = pair.a == n && pair.b == n && counters[0].value == n && counters[1].value == n
                && slots.get(0) == n && slots.get(1) == n && spread[0] == n && spread[16] == n && shared.hits == 2 * n
                && padded.a == n && padded.b == n && left == n && right == n && sums[0] == n && sums[16] == n
                && gap7.length == 32 && gap8.length == 32;
        System.out.println("planted " + (ok ? "ok " + n : "WRONG"));
    }

    static void atomics() throws Exception {
        java.util.concurrent.atomic.AtomicLong[] counts = {new java.util.concurrent.atomic.AtomicLong(),
                new java.util.concurrent.atomic.AtomicLong()};
        CyclicBarrier barrier = new CyclicBarrier(2);
        Thread[] workers = new Thread[2];
        for (int t = 0; t < 2; t++) {
            java.util.concurrent.atomic.AtomicLong mine = counts[t];
            workers[t] = new Thread(() -> {
                try {
                    for (int r = 0; r < ROUNDS; r++) {
                        barrier.await();
                        for (int s = 0; s < STEPS; s++) mine.incrementAndGet();
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            }, "worker-" + t);
        }
        for (Thread w : workers) w.start();
        for (Thread w : workers) w.join();
        System.out.println("atomics " + (counts[0].get() + counts[1].get()));
    }

    static void offsets() throws Exception {
        System.out.println("Pair.b - Pair.a: " + Math.abs(offset(Pair.class, "b") - offset(Pair.class, "a")));
        System.out.println("Counter.value: " + offset(Counter.class, "value"));
    }

    static void reflect() throws Exception {
        Pair p = new Pair();
        p.a = 3;
        p.b = 4;
        Field a = Pair.class.getDeclaredField("a");
        a.setLong(p, a.getLong(p) + 10);
        Object unsafe = unsafe();
        long bOffset = offset(Pair.class, "b");
        long b = (long) unsafe.getClass().getMethod("getLong", Object.class, long.class).invoke(unsafe, p, bOffset);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(p);
        }
        Pair copy;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            copy = (Pair) in.readObject();
        }
        System.out.println("reflect a=" + p.a + " unsafe b=" + b + " copy " + copy.a + " " + copy.b
                + " fields " + Pair.class.getDeclaredFields().length);
    }

    static long offset(Class<?> c, String name) throws Exception {
        Object unsafe = unsafe();
        return (long) unsafe.getClass().getMethod("objectFieldOffset", Field.class).invoke(unsafe, c.getDeclaredField(name));
    }

    static Object unsafe() throws Exception {
        Field f = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
        f.setAccessible(true);
        return f.get(null);
    }
}
