import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Objects owned by one thread, first touched by another: each round loads a fresh copy of
 * {@link Cell} (a class of its own, so a hierarchy that has never been touched), thread A makes an
 * object of it, and A and B race in the store-buffering shape while B's load is the first access
 * by a thread other than the owner:
 *
 * <pre>
 * A (owner):  o.x = 1;  r1 = s.y          B:  s.y = 1;  r2 = o.x   (the first touch)
 * </pre>
 *
 * r1 = 0 and r2 = 0 is forbidden under sequential consistency. With {@code compiled}, each class's
 * store method is first made hot on an object A owns, so the store runs compiled on the fast path
 * when the hierarchy is switched under it. Prints {@code outcome <r1r2> <count>} lines and
 * {@code fast-before N}, {@code slow-after N} (whether the hierarchy was fast right before the
 * race and fenced after it, when vbd's speculative runtime is present). {@code behaviour} checks
 * what a program sees of the mode: no owner field, serialization as declared.
 *
 * <p>Usage: {@code Main transitions ROUNDS [compiled]} or {@code Main behaviour}.
 */
public class Main {
    public interface Access {
        void store();
        int load();
    }

    static final class Shared {
        int y;
    }

    public static final class Point implements Serializable {
        int x;
        long y;
        transient int t;
        Point(int x, long y) { this.x = x; this.y = y; }
    }

    record Pair(int a, String b) {}

    static final class Sheep implements Cloneable {
        int n = 5;

        Sheep copy() throws CloneNotSupportedException {
            return (Sheep) super.clone();
        }
    }

    static final class Goat implements Cloneable {
        int n = 6;

        static java.lang.invoke.MethodHandle cloner() throws ReflectiveOperationException {
            return java.lang.invoke.MethodHandles.lookup().findSpecial(Object.class, "clone",
                    java.lang.invoke.MethodType.methodType(Object.class), Goat.class);
        }
    }

    public static void main(String[] args) throws Throwable {
        if (args[0].equals("behaviour")) {
            behaviour();
            return;
        }
        int rounds = Integer.parseInt(args[1]);
        boolean compiled = args.length > 2 && args[2].equals("compiled");
        transitions(rounds, compiled);
    }

    // -- transitions

    private static volatile int go;
    private static volatile int doneA, doneB;
    private static volatile Access cell;
    private static volatile Shared shared;
    private static int r1, r2;
    private static volatile int delay;
    private static volatile boolean ready;

    static void transitions(int rounds, boolean compiled) throws Exception {
        Method fast = speculationProbe();
        byte[] bytes;
        try (InputStream in = Main.class.getResourceAsStream("Cell.class")) {
            bytes = in.readAllBytes();
        }
        Access[] cells = new Access[rounds];
        Class<?>[] classes = new Class<?>[rounds];
        Thread owner = new Thread(() -> {
            try {
                // A makes every object, so A owns them all
                for (int i = 0; i < rounds; i++) {
                    classes[i] = new Fresh(bytes).loadClass("Cell");
                    cells[i] = (Access) classes[i].getDeclaredConstructor().newInstance();
                    if (compiled) {
                        Access warm = (Access) classes[i].getDeclaredConstructor().newInstance();
                        for (int k = 0; k < 20_000; k++) warm.store();
                    }
                }
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
            ready = true;
            int seen = 0;
            while (true) {
                while (go == seen) Thread.onSpinWait();
                seen = go;
                if (seen < 0) return;
                for (int spin = delay; spin > 0; spin--) Thread.onSpinWait();
                cell.store();
                r1 = shared.y;
                doneA = seen;
            }
        }, "A");
        Thread other = new Thread(() -> {
            int seen = 0;
            while (true) {
                while (go == seen) Thread.onSpinWait();
                seen = go;
                if (seen < 0) return;
                shared.y = 1;
                r2 = cell.load();
                doneB = seen;
            }
        }, "B");
        // daemons: should the main thread fail, the spinning actors must not keep the JVM alive
        owner.setDaemon(true);
        other.setDaemon(true);
        owner.start();
        other.start();
        while (!ready) Thread.sleep(10);
        long[] outcomes = new long[4];
        int fastBefore = 0, slowAfter = 0;
        for (int i = 0; i < rounds; i++) {
            shared = new Shared();
            cell = cells[i];
            r1 = -1;
            r2 = -1;
            delay = ThreadLocalRandom.current().nextInt(0, 2_000);
            if (fast != null && (boolean) fast.invoke(null, classes[i])) fastBefore++;
            go = i + 1;
            while (doneA != i + 1 || doneB != i + 1) Thread.yield();
            outcomes[r1 * 2 + r2]++;
            if (fast != null && !(boolean) fast.invoke(null, classes[i])) slowAfter++;
        }
        go = -1;
        owner.join();
        other.join();
        String[] names = {"00", "01", "10", "11"};
        for (int k = 0; k < 4; k++) System.out.println("outcome " + names[k] + " " + outcomes[k]);
        System.out.println("fast-before " + fastBefore);
        System.out.println("slow-after " + slowAfter);
        System.out.println("speculation " + (fast != null ? "present" : "absent"));
    }

    static Method speculationProbe() {
        try {
            return Class.forName("java.util.concurrent.atomic.VbdSpeculation").getMethod("fast", Class.class);
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    /** Defines Cell afresh; everything else comes from the program's loader. */
    static final class Fresh extends ClassLoader {
        private final byte[] bytes;

        Fresh(byte[] bytes) {
            super(Main.class.getClassLoader());
            this.bytes = bytes;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.equals("Cell")) return super.loadClass(name, resolve);
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                return c != null ? c : defineClass(name, bytes, 0, bytes.length);
            }
        }
    }

    // -- behaviour

    static void behaviour() throws Throwable {
        Method fast = speculationProbe();
        System.out.println("point fields " + Arrays.toString(Arrays.stream(Point.class.getDeclaredFields()).map(f -> f.getName()).toArray()));
        System.out.println("point suid " + ObjectStreamClass.lookup(Point.class).getSerialVersionUID());
        Point p = new Point(3, 4);
        p.t = 5;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(p);
        }
        Point q;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            q = (Point) in.readObject();
        }
        q.x += 1;
        System.out.println("deserialized " + q.x + " " + q.y + " " + q.t);
        System.out.println("record " + new Pair(1, "b") + " " + new Pair(1, "b").equals(new Pair(1, "b")));
        System.out.println("record components " + Pair.class.getRecordComponents().length);
        Sheep sheep = new Sheep();
        System.out.println("clone by its owner " + sheep.copy().n);
        boolean sheepFastAfterOwnClone = fast != null && (boolean) fast.invoke(null, Sheep.class);
        Sheep[] dolly = new Sheep[1];
        Thread other = new Thread(() -> {
            try {
                dolly[0] = sheep.copy();
            } catch (CloneNotSupportedException e) {
                throw new IllegalStateException(e);
            }
        });
        other.start();
        other.join();
        System.out.println("clone by another thread " + dolly[0].n);
        Goat goat = new Goat();
        boolean goatFastBefore = fast != null && (boolean) fast.invoke(null, Goat.class);
        System.out.println("clone through a method handle " + ((Goat) (Object) Goat.cloner().invoke(goat)).n);
        if (fast != null) {
            System.out.println("clone by its owner fast " + sheepFastAfterOwnClone);
            System.out.println("clone by another thread fenced " + !(boolean) fast.invoke(null, Sheep.class));
            System.out.println("clone through a method handle fenced " + (goatFastBefore && !(boolean) fast.invoke(null, Goat.class)));
            System.out.println("serialized class fenced " + !(boolean) fast.invoke(null, Point.class));
            Shared s = new Shared();
            s.y = 1;
            System.out.println("owned class fast " + fast.invoke(null, Shared.class));
            java.lang.invoke.VarHandle h = java.lang.invoke.MethodHandles.lookup().findVarHandle(Shared.class, "y", int.class);
            System.out.println("after a VarHandle fenced " + !(boolean) fast.invoke(null, Shared.class) + " " + (int) h.get(s));
            // a lookup by name with private access still finds the owner field (a hole named in the docs)
            Point mine = new Point(1, 2);
            Object owner = java.lang.invoke.MethodHandles.privateLookupIn(Point.class, java.lang.invoke.MethodHandles.lookup())
                    .findGetter(Point.class, "vbd$owner", Thread.class).invoke(mine);
            System.out.println("owner field found by name " + (owner == Thread.currentThread()));
        }
    }
}
