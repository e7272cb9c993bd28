package dev.vbd.litmus.speculation;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The one dangerous moment of speculative SC (docs/speculation.md), in the store-buffering shape.
 *
 * <p>An object that only its creating thread has touched is accessed by that thread without fences;
 * the first access by another thread switches the object's class to fenced access ("the transition").
 * Each round a fresh object {@code o} of a fresh class mode is made by thread A:
 * <pre>
 *   A (owns o):  o.x = 1   (the protocol's store)      B: r0 = o.z  (first touch: the transition)
 *                r1 = s.y  (SC)                           s.y = 1    (SC)
 *                                                         r2 = o.x   (the protocol's load)
 * </pre>
 * {@code r1 == 0 && r2 == 0} is forbidden under SC. A waits a random while before its store, so that
 * its store and check fall, round after round, at every point of B's transition
 * (by default, up to one and a half times the transition's median length, with every scale down to
 * 1/64 of that drawn equally often); B waits up to 3.2 microseconds before its first touch, so that
 * the two meet whichever is the faster to reach its accesses.
 *
 * <p>The accesses are written out by hand here, in the order the rewriter emits them; each
 * {@link Protocol} is one way of ordering the check against the access it guards.
 */
public final class OwnershipTransition {

    public enum Protocol {
        /** Plain store, then the check; a failed check fences. The transition stops every thread once. */
        STORE_THEN_CHECK,
        /** The check, then a plain store when it passed: a thread stopped between the two stores plainly after the transition. */
        CHECK_THEN_STORE,
        /** STORE_THEN_CHECK with a transition that stops no thread: the owner's buffered store escapes it. */
        NO_HANDSHAKE
    }

    static final int FAST = 0, SWITCHING = 1, SLOW = 2;

    /** What a class's mode would be; one per round, so that every round has a transition. */
    static final class Mode {
        volatile int state = FAST;
    }

    static final class Owned {
        int x;
        int z;
        final Thread owner;
        final Mode mode;

        Owned(Thread owner, Mode mode) {
            this.owner = owner;
            this.mode = mode;
        }
    }

    static final class Shared {
        volatile int y;
    }

    static final class Round {
        final Owned o;
        volatile boolean bDone;
        int r2;

        Round(Owned o) {
            this.o = o;
        }
    }

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Mode.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Protocol protocol;
    private final Shared s = new Shared();
    private volatile Round round;
    private volatile boolean stop;
    long transitions;

    OwnershipTransition(Protocol protocol) {
        this.protocol = protocol;
    }

    /** The fast path's condition: the class has not switched and the current thread made the object. */
    static boolean fast(Owned o) {
        return o.mode.state == FAST && o.owner == Thread.currentThread();
    }

    /** The slow path's entry: a thread that does not own {@code o} switches its class, or waits for the switch to finish. */
    void touch(Owned o) {
        Mode m = o.mode;
        if (m.state == SLOW || o.owner == Thread.currentThread()) {
            return;
        }
        if (STATE.compareAndSet(m, FAST, SWITCHING)) {
            if (protocol != Protocol.NO_HANDSHAKE) {
                stopEveryThreadOnce();
            }
            transitions++;
            m.state = SLOW;
        } else {
            while (m.state != SLOW) {
                Thread.onSpinWait();
            }
        }
    }

    /**
     * A global safepoint: every thread running Java code stops at a poll, which is a full fence in its
     * own instruction stream, and sees the switched mode after it; a thread in native code or blocked
     * passed such a fence on its way out of Java code.
     */
    static void stopEveryThreadOnce() {
        Thread.getAllStackTraces();
    }

    void store(Owned o, int v) {
        if (protocol == Protocol.CHECK_THEN_STORE) {
            if (fast(o)) {
                o.x = v;
            } else {
                touch(o);
                VarHandle.releaseFence();
                o.x = v;
                VarHandle.fullFence();
            }
            return;
        }
        VarHandle.releaseFence();
        o.x = v;
        if (!fast(o)) {
            touch(o);
            VarHandle.fullFence();
        }
    }

    /** The protocol's load of {@code o.x}, or of {@code o.z}. */
    int load(Owned o, boolean x) {
        boolean fast = fast(o);
        if (!fast) {
            touch(o);
        }
        int v = x ? o.x : o.z;
        if (!fast) {
            VarHandle.acquireFence();
        }
        return v;
    }

    /**
     * How long B's first touch may take, so that A's store can fall anywhere in it: a safepoint's
     * length, or, without one, {@link #SKEW_NANOS}.
     */
    long transitionNanos() {
        if (protocol == Protocol.NO_HANDSHAKE) {
            return SKEW_NANOS;
        }
        long[] t = new long[15];
        for (int i = 0; i < t.length; i++) {
            long start = System.nanoTime();
            stopEveryThreadOnce();
            t[i] = System.nanoTime() - start;
        }
        Arrays.sort(t);
        return t[t.length / 2] * 3 / 2;
    }

    /**
     * Well above the time one core takes to see another's store: the bound of A's delay where no
     * safepoint lengthens the transition, and of B's always, since on a machine where A reaches its
     * store later than B finishes, whatever A's delay, only B's delay lets the two meet.
     */
    private static final long SKEW_NANOS = 3_200;

    /** Halvings of the bound that a round's delay is drawn under, each equally often. */
    private static final int DELAY_SCALES = 7;

    /**
     * A's delay: uniform up to the bound halved a random number of times, so that every scale from
     * the bound down to 1/64 of it gets as many rounds; where in B's transition the store must fall
     * to be caught depends on the machine, short delays and long ones alike.
     */
    static long delay(ThreadLocalRandom random, long maxDelayNanos) {
        long scale = maxDelayNanos >> random.nextInt(DELAY_SCALES);
        return random.nextLong(scale + 1);
    }

    private static void spin(long nanos) {
        long until = System.nanoTime() + nanos;
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }

    /**
     * Runs {@code rounds} rounds, or fewer when {@code untilForbidden} and the forbidden outcome shows;
     * returns the counts of (r1, r2) = 00, 01, 10, 11.
     */
    long[] run(int rounds, long maxDelayNanos, boolean untilForbidden) throws InterruptedException {
        long[] outcomes = new long[4];
        Thread b = new Thread(this::actorB, "actor-B");
        b.setDaemon(true);
        b.start();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        Thread a = Thread.currentThread();
        for (int i = 0; i < rounds; i++) {
            Owned o = new Owned(a, new Mode());
            s.y = 0;
            Round r = new Round(o);
            round = r;
            spin(delay(random, maxDelayNanos));
            store(o, 1);
            int r1 = s.y;
            while (!r.bDone) {
                Thread.onSpinWait();
            }
            outcomes[r1 * 2 + r.r2]++;
            if (untilForbidden && outcomes[0] > 0) {
                break;
            }
        }
        stop = true;
        b.join();
        return outcomes;
    }

    private void actorB() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        Round last = null;
        while (!stop) {
            Round r = round;
            if (r == null || r == last) {
                Thread.onSpinWait();
                continue;
            }
            last = r;
            spin(delay(random, SKEW_NANOS));
            load(r.o, false);
            s.y = 1;
            r.r2 = load(r.o, true);
            r.bDone = true;
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Protocol protocol = Protocol.STORE_THEN_CHECK;
        int rounds = 100_000;
        long maxDelayNanos = -1;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--protocol" -> protocol = parseProtocol(value(args, ++i, "--protocol"));
                case "--rounds" -> rounds = positive(value(args, ++i, "--rounds"), "--rounds");
                case "--max-delay-ns" -> maxDelayNanos = positive(value(args, ++i, "--max-delay-ns"), "--max-delay-ns");
                default -> usage("unknown option " + args[i]);
            }
        }
        long start = System.nanoTime();
        OwnershipTransition test = new OwnershipTransition(protocol);
        if (maxDelayNanos < 0) {
            maxDelayNanos = test.transitionNanos();
        }
        long[] outcomes = test.run(rounds, maxDelayNanos, false);
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "protocol %s, %d rounds, %d transitions, owner's store delayed up to %d ns, %.1f s%n",
                protocol.name().toLowerCase(Locale.ROOT).replace('_', '-'), rounds, test.transitions, maxDelayNanos, seconds);
        System.out.printf(Locale.ROOT, "  r1=0 r2=0 (forbidden): %d%n  r1=0 r2=1: %d%n  r1=1 r2=0: %d%n  r1=1 r2=1: %d%n",
                outcomes[0], outcomes[1], outcomes[2], outcomes[3]);
        System.out.println(outcomes[0] == 0 ? "OK: 0 forbidden" : "FORBIDDEN outcome seen " + outcomes[0] + " times");
        System.exit(outcomes[0] == 0 ? 0 : 1);
    }

    private static Protocol parseProtocol(String s) {
        try {
            return Protocol.valueOf(s.toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            usage("--protocol: '" + s + "' is not one of " + Arrays.stream(Protocol.values())
                    .map(p -> p.name().toLowerCase(Locale.ROOT).replace('_', '-')).toList());
            return null;
        }
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            usage(option + " needs a value");
        }
        return args[i];
    }

    private static int positive(String s, String option) {
        try {
            int n = Integer.parseInt(s);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // named below
        }
        usage(option + ": '" + s + "' is not a positive number");
        return 0;
    }

    private static void usage(String problem) {
        System.err.println("OwnershipTransition: " + problem);
        System.err.println("usage: OwnershipTransition [--protocol store-then-check|check-then-store|no-handshake]"
                + " [--rounds N] [--max-delay-ns N]");
        System.exit(2);
    }
}
