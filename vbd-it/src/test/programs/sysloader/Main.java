import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Store buffering ({@code x = 1; r1 = y} || {@code y = 1; r2 = x}) run by classes that a custom
 * system class loader brought in before any agent, on their own plain fields and arrays.
 * Usage: {@code Main TRIALS SHAPE...} with shapes {@code loader-array} (actors in the loader class
 * on its arrays), {@code helper-fields} (actors in the helper class on its fields) and
 * {@code main-fields} (actors in this class, loaded later, on the helper's fields),
 * {@code handle-fields} and {@code reflect-fields} (the same through method handles and through
 * {@code Field.getInt}/{@code setInt}: accessors vbd cannot fence on fields the JVM keeps plain); or
 * {@code Main reflect}. Prints {@code loader=NAME}, then per shape
 * {@code SB shape=S trials=N forbidden=F}.
 *
 * <p>Each round allocates a batch of fresh state; two actor threads start on a barrier, meet again
 * on a spin gate so that they run within nanoseconds of each other, and walk the batch.
 */
public class Main {
    static final int BATCH = 1000;

    interface Shape {
        void allocate(int n);
        void actor1(int n, int[] r);
        void actor2(int n, int[] r);
    }

    static Shape shape(String name) {
        switch (name) {
            case "loader-array": return new Shape() {
                public void allocate(int n) { SbLoader.allocate(n); }
                public void actor1(int n, int[] r) { SbLoader.actor1(n, r); }
                public void actor2(int n, int[] r) { SbLoader.actor2(n, r); }
            };
            case "helper-fields": return new Shape() {
                public void allocate(int n) { Helper.allocate(n); }
                public void actor1(int n, int[] r) { Helper.actor1(n, r); }
                public void actor2(int n, int[] r) { Helper.actor2(n, r); }
            };
            case "main-fields": return new Shape() {
                public void allocate(int n) { Helper.allocate(n); }
                public void actor1(int n, int[] r) { Helper[] s = Helper.states; for (int i = 0; i < n; i++) { Helper h = s[i]; h.x = 1; r[i] = h.y; } }
                public void actor2(int n, int[] r) { Helper[] s = Helper.states; for (int i = 0; i < n; i++) { Helper h = s[i]; h.y = 1; r[i] = h.x; } }
            };
            case "handle-fields": return new Shape() {
                public void allocate(int n) { Helper.allocate(n); }
                public void actor1(int n, int[] r) { Helper[] s = Helper.states; for (int i = 0; i < n; i++) { Helper h = s[i]; Accessors.setX(h); r[i] = Accessors.getY(h); } }
                public void actor2(int n, int[] r) { Helper[] s = Helper.states; for (int i = 0; i < n; i++) { Helper h = s[i]; Accessors.setY(h); r[i] = Accessors.getX(h); } }
            };
            case "reflect-fields": return new Shape() {
                public void allocate(int n) { Helper.allocate(n); }
                public void actor1(int n, int[] r) { Helper[] s = Helper.states; for (int i = 0; i < n; i++) { Helper h = s[i]; Accessors.reflectSet(Accessors.X, h); r[i] = Accessors.reflectGet(Accessors.Y, h); } }
                public void actor2(int n, int[] r) { Helper[] s = Helper.states; for (int i = 0; i < n; i++) { Helper h = s[i]; Accessors.reflectSet(Accessors.Y, h); r[i] = Accessors.reflectGet(Accessors.X, h); } }
            };
            default: throw new IllegalArgumentException("unknown shape " + name);
        }
    }

    public static void main(String[] args) throws Exception {
        System.out.println("loader=" + ClassLoader.getSystemClassLoader().getClass().getName());
        if (args[0].equals("reflect")) {
            System.out.println("reflect Helper.x volatile=" + Modifier.isVolatile(Helper.class.getDeclaredField("x").getModifiers())
                    + " Main.mainField volatile=" + Modifier.isVolatile(Main.class.getDeclaredField("mainField").getModifiers()));
            return;
        }
        long trials = Long.parseLong(args[0]);
        for (int a = 1; a < args.length; a++) run(args[a], shape(args[a]), trials);
    }

    int mainField;

    static void run(String name, Shape shape, long trials) throws Exception {
        int[] r1 = new int[BATCH], r2 = new int[BATCH];
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
                        if (id == 0) shape.actor1(BATCH, r1); else shape.actor2(BATCH, r2);
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
            shape.allocate(BATCH);
            start.await();
            end.await();
            for (int i = 0; i < BATCH; i++) if (r1[i] == 0 && r2[i] == 0) forbidden++;
            done += BATCH;
        }
        for (Thread t : actors) t.join();
        System.out.println("SB shape=" + name + " trials=" + done + " forbidden=" + forbidden);
    }

    /** Both actors arrive, then both leave: a spin gate much tighter than the barrier. */
    static void meet(AtomicInteger gate, long round) {
        int target = (int) (2 * (round + 1));
        gate.incrementAndGet();
        while (gate.get() < target) Thread.onSpinWait();
    }

    /** Method handles and reflection on the helper's plain fields. */
    static final class Accessors {
        static final MethodHandle SET_X, SET_Y, GET_X, GET_Y;
        static final Field X, Y;

        static {
            try {
                MethodHandles.Lookup l = MethodHandles.lookup();
                SET_X = l.findSetter(Helper.class, "x", int.class);
                SET_Y = l.findSetter(Helper.class, "y", int.class);
                GET_X = l.findGetter(Helper.class, "x", int.class);
                GET_Y = l.findGetter(Helper.class, "y", int.class);
                X = Helper.class.getDeclaredField("x");
                Y = Helper.class.getDeclaredField("y");
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        static void setX(Helper h) { try { SET_X.invokeExact(h, 1); } catch (Throwable t) { throw new AssertionError(t); } }
        static void setY(Helper h) { try { SET_Y.invokeExact(h, 1); } catch (Throwable t) { throw new AssertionError(t); } }
        static int getX(Helper h) { try { return (int) GET_X.invokeExact(h); } catch (Throwable t) { throw new AssertionError(t); } }
        static int getY(Helper h) { try { return (int) GET_Y.invokeExact(h); } catch (Throwable t) { throw new AssertionError(t); } }
        static void reflectSet(Field f, Helper h) { try { f.setInt(h, 1); } catch (IllegalAccessException e) { throw new AssertionError(e); } }
        static int reflectGet(Field f, Helper h) { try { return f.getInt(h); } catch (IllegalAccessException e) { throw new AssertionError(e); } }
    }
}
