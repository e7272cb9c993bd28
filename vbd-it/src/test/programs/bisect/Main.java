import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * Small memory-model bugs for {@code vbd bisect}, each hidden among the generated {@code Decoys}
 * fields, which three other threads read and write all the while. Each run prints one line and
 * exits 0 when the program worked, 1 when it did not; a stuck thread is caught by a bounded join.
 * Exits go through System.exit, not halt, so that shutdown hooks (vbd's observer) still run.
 *
 * <p>Usage: {@code Main VARIANT [exit|print|hang]}; the second word says how a failure shows (an
 * exit status of 1, the default; a line only; a program that never ends), for the ways
 * {@code vbd bisect} can tell a failure. The culprits, what must be SC for the failure to vanish:
 * <ul>
 * <li>{@code stop-flag}: the field {@code Worker.stop}.
 * <li>{@code dcl}: the static field {@code Registry.instance} (not {@code Registry.loaded},
 *     {@code size} or {@code entries}: a volatile store and load of {@code instance} order them).
 * <li>{@code dekker}: the fields {@code Door.wantsA} and {@code Door.wantsB}, both.
 * <li>{@code array-message}: the element accesses of {@code Mailbox.receive} (relaxed config
 *     {@code arrays Mailbox#receive}), the reader of the {@code int[]} held by the final static
 *     field {@code Mailbox.slots} and allocated in {@code Mailbox.<clinit>}. Its writer,
 *     {@code Mailbox.send}, is a candidate but no culprit on x86: TSO keeps its two stores in
 *     order, and so does C2 (stores to int[] elements share one memory slice).
 * <li>{@code logic}: none. Lost updates of {@code Counter.count++} happen under SC too, so it
 *     fails under vbd as well ({@code Counter.count} is a candidate, not a culprit).
 * </ul>
 */
public class Main {
    static final int DECOY_THREADS = 3;
    /** How long the bug's threads get to end once they should; they end within milliseconds when the program works. */
    static final long JOIN_MILLIS = 2000;

    private static String variant;
    /** How a failure shows: exit status 1 ({@code exit}), or a line only, with exit status 0 ({@code print}). */
    private static String shows = "exit";
    /** {@code hang}: a stop flag the worker never sees leaves the program waiting for it for ever. */
    private static boolean hang;

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || args.length > 2 || args.length == 2 && !List.of("exit", "print", "hang").contains(args[1])) {
            System.err.println("usage: Main stop-flag|dcl|dekker|array-message|logic [exit|print|hang]");
            System.exit(2);
        }
        variant = args[0];
        if (args.length == 2) {
            hang = args[1].equals("hang");
            if (!hang) shows = args[1];
        }
        startDecoys();
        switch (variant) {
            case "stop-flag": stopFlag(); break;
            case "dcl": dcl(); break;
            case "dekker": dekker(); break;
            case "array-message": arrayMessage(); break;
            case "logic": logic(); break;
            default:
                System.err.println("unknown variant '" + variant + "'");
                System.exit(2);
        }
    }

    /** A worker loops on a plain flag that the main thread sets a second later. */
    static void stopFlag() throws InterruptedException {
        Worker worker = new Worker();
        Thread t = daemon("worker", worker);
        t.start();
        // long enough for C2 to compile the worker's loop (OSR) before the flag changes
        Thread.sleep(1000);
        worker.stop = true;
        if (hang) t.join();
        t.join(JOIN_MILLIS);
        if (t.isAlive()) fail("the worker still runs " + JOIN_MILLIS + " ms after Worker.stop was set");
        pass("the worker stopped after " + worker.rounds + " rounds");
    }

    /**
     * Double-checked locking without volatile. The classic symptom, another thread seeing the
     * singleton half built, is not what x86 shows: TSO keeps the constructor's stores ahead of the
     * store to {@code instance}, and so does C2 nearly always. Publishing a fresh object in a loop
     * for 20 s, a reader saw one half built on JDK 17 never in about 380 million, on JDK 25 one in
     * about 4 million (always a field holding an array the constructor allocated, still null): a
     * singleton, published once, does not show it. What x86 shows is the fast path's plain load
     * hoisted out of a loop: a reporter that waits for another thread to set the registry up,
     * polling {@code Registry.peek()}, never sees it once C2 has compiled the loop.
     */
    static void dcl() throws InterruptedException {
        AtomicReference<String> seen = new AtomicReference<>();
        Thread reporter = daemon("reporter", () -> {
            Registry r;
            while ((r = Registry.peek()) == null) {
            }
            String missing = r.missing();
            seen.set(missing == null ? "whole" : "half built (" + missing + ")");
        });
        reporter.start();
        Thread.sleep(1000);
        // the first requests: two threads race through get(), one of them creates the registry
        AtomicReference<Registry> first = new AtomicReference<>(), second = new AtomicReference<>();
        Thread h1 = daemon("handler-1", () -> first.set(Registry.get()));
        Thread h2 = daemon("handler-2", () -> second.set(Registry.get()));
        h1.start();
        h2.start();
        h1.join(JOIN_MILLIS);
        h2.join(JOIN_MILLIS);
        if (first.get() == null || first.get() != second.get()) fail("the handlers got different registries");
        reporter.join(JOIN_MILLIS);
        if (reporter.isAlive()) fail("the reporter never saw the registry, " + JOIN_MILLIS + " ms after it was set up");
        if (!seen.get().equals("whole")) fail("the reporter saw the registry " + seen.get());
        pass("the reporter saw the registry whole");
    }

    /**
     * Two threads take a Dekker-style try-lock over and over for a second; the room counts the
     * times it found someone already inside. They stop at the first collision.
     */
    static void dekker() throws InterruptedException {
        Door door = new Door();
        Room room = new Room();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1000);
        CountDownLatch ready = new CountDownLatch(2);
        AtomicLong entries = new AtomicLong(), visits = new AtomicLong();
        Thread a = daemon("visitor-a", () -> visit(door::visitA, room, ready, deadline, entries, visits));
        Thread b = daemon("visitor-b", () -> visit(door::visitB, room, ready, deadline, entries, visits));
        a.start();
        b.start();
        a.join(JOIN_MILLIS + 1000);
        b.join(JOIN_MILLIS);
        if (a.isAlive() || b.isAlive()) fail("a visitor did not stop in time");
        int collisions = room.collisions.get();
        if (collisions > 0) {
            fail("both threads were in the critical section at once, after " + visits.get() + " visits and " + entries.get() + " entries");
        }
        pass(entries.get() + " entries in " + visits.get() + " visits, never two at once");
    }

    private static void visit(Predicate<Room> door, Room room, CountDownLatch ready, long deadline, AtomicLong entries, AtomicLong visits) {
        // both threads running before either visits: a race needs them side by side
        ready.countDown();
        await(ready);
        long in = 0, i = 0;
        while (true) {
            if (door.test(room)) in++;
            if ((++i & 1023) == 0 && (room.collisions.get() > 0 || System.nanoTime() > deadline)) break;
        }
        entries.addAndGet(in);
        visits.addAndGet(i);
    }

    /** A message through a plain array: the receiver spins on one element, the sender sets it a second later. */
    static void arrayMessage() throws InterruptedException {
        AtomicInteger received = new AtomicInteger(-1);
        Thread receiver = daemon("receiver", () -> received.set(Mailbox.receive()));
        receiver.start();
        Thread.sleep(1000);
        Mailbox.send(42);
        receiver.join(JOIN_MILLIS);
        if (receiver.isAlive()) fail("the receiver never saw the message, " + JOIN_MILLIS + " ms after it was sent");
        if (received.get() != 42) fail("the receiver got " + received.get() + ", not 42");
        pass("the receiver got 42");
    }

    /** Two threads record five million events each on one counter, whose plain count++ loses updates. */
    static void logic() throws InterruptedException {
        Counter counter = new Counter();
        int each = 5_000_000;
        CountDownLatch ready = new CountDownLatch(2);
        Runnable record = () -> {
            ready.countDown();
            await(ready);
            for (int i = 0; i < each; i++) counter.record();
        };
        Thread a = daemon("recorder-a", record), b = daemon("recorder-b", record);
        a.start();
        b.start();
        a.join(JOIN_MILLIS + 1000);
        b.join(JOIN_MILLIS);
        if (a.isAlive() || b.isAlive()) fail("a recording thread did not finish in time");
        long events = counter.events.sum();
        int count = counter.count;
        if (count != events) fail("the count is " + count + " after " + events + " events: " + (events - count) + " increments lost");
        pass("the count is " + count + " after " + events + " events");
    }

    /** Threads that read and write every decoy field, over and over, until the program ends. */
    static void startDecoys() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(DECOY_THREADS);
        for (int t = 0; t < DECOY_THREADS; t++) {
            long seed = t;
            daemon("decoy-" + t, () -> {
                long s = seed;
                while (true) {
                    s = Decoys.touch(s);
                    started.countDown();
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }).start();
        }
        // each decoy is shared before the bug starts, however slowly the threads get going
        started.await(2, TimeUnit.SECONDS);
    }

    private static Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        return t;
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void pass(String what) {
        System.out.println(variant + ": ok: " + what);
        System.exit(0);
    }

    private static void fail(String what) {
        System.out.println(variant + ": FAILED: " + what);
        System.exit(shows.equals("print") ? 0 : 1);
    }
}
