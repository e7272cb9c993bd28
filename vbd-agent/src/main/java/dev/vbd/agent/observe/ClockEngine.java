package dev.vbd.agent.observe;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The orderings between threads that the observed run's synchronisation makes, as vector clocks
 * ({@link ThreadState}): a release at a lock, a thread's start, a hand-off or the end of a class's
 * initialiser or an object's constructor, and the acquire that each orders before what follows
 * it. The caller has marked the thread busy.
 */
final class ClockEngine {
    private final LocationTable locations;
    /**
     * Per class whose initialiser was seen to end: the moment it ended. The JVM's initialisation lock
     * orders that end before every other thread's use of the class (JLS 12.4.2), so a read of a
     * static field that the initialiser, or a constructor it called, wrote (a Scala object's
     * {@code MODULE$}) does not race with that write.
     */
    private final Map<Class<?>, ThreadState.Moment> initialised = new ConcurrentHashMap<>();
    /** Per class whose initialiser was seen to start and not yet to end: the thread running it. */
    private final Map<Class<?>, Thread> initialising = new ConcurrentHashMap<>();
    /**
     * Per identity hash of an object whose class declares a finalizer: what happened before the end
     * of its constructor, met with that of every other such object of the same hash. The end of an
     * object's constructor happens before the start of its finalizer (JLS 17.4.5), which the finalizer
     * thread runs once the object is unreachable: its weak key in the location table is cleared by
     * then, the hash is not. The meet keeps it sound where two objects share one.
     */
    private final Map<Integer, ThreadState.Moment> constructed = new HashMap<>();

    ClockEngine(LocationTable locations) {
        this.locations = locations;
    }

    /** A thread's first visit: it is ordered after what its starter did before {@link #released starting} it. */
    void arrived(ThreadState t) {
        Location l = locations.syncLocation(t.thread, LocationTable.THREAD, t);
        synchronized (locations.stripe(l)) {
            l.state = t;
            t.acquire(l.released);
        }
    }

    /** The thread running the initialiser of {@code c}, if one is running it. */
    Thread initialiser(Class<?> c) {
        return initialising.get(c);
    }

    /** Orders what follows after the end of the initialiser of {@code c}, where it was seen. */
    void afterInitialiser(ThreadState t, Class<?> c) {
        t.acquire(initialised.get(c));
    }

    void initialising(ThreadState t, Class<?> c) {
        initialising.put(c, t.thread);
    }

    void initialised(ThreadState t, Class<?> c) {
        initialised.put(c, t.release());
        initialising.remove(c);
    }

    void constructed(ThreadState t, Object o) {
        Integer h = System.identityHashCode(o);
        ThreadState.Moment now = t.release();
        synchronized (constructed) {
            ThreadState.Moment before = constructed.get(h);
            constructed.put(h, before == null ? now : ThreadState.meet(before, now));
        }
    }

    void finalizing(ThreadState t, Object o) {
        ThreadState.Moment m;
        synchronized (constructed) {
            m = constructed.get(System.identityHashCode(o));
        }
        t.acquire(m);
    }

    void acquired(ThreadState t, Object lock) {
        Location l = locations.syncLocation(lock, LocationTable.LOCK, t);
        synchronized (locations.stripe(l)) {
            t.acquire(l.released);
        }
    }

    /** A release at a lock ({@link LocationTable#LOCK}) or of a thread about to start ({@link LocationTable#THREAD}). */
    void released(ThreadState t, Object o, int kind) {
        Location l = locations.syncLocation(o, kind, t);
        synchronized (locations.stripe(l)) {
            l.released = t.release();
        }
    }

    /**
     * One object may be handed over again before it was taken over (one task submitted twice),
     * and a taker cannot tell which hand-off it took: it is then ordered after only what all of
     * them were (their clocks' meet).
     */
    void handingOver(ThreadState t, Object o) {
        Location l = locations.syncLocation(o, LocationTable.HANDED, t);
        synchronized (locations.stripe(l)) {
            ThreadState.Moment now = t.release();
            l.released = l.handedOver > 0 ? ThreadState.meet(l.released, now) : now;
            l.handedOver = Math.max(l.handedOver, 0) + 1;
        }
    }

    void takingOver(ThreadState t, Object o) {
        Location l = locations.syncLocation(o, LocationTable.HANDED, t);
        synchronized (locations.stripe(l)) {
            t.acquire(l.released);
            l.handedOver--;
        }
    }

    void joined(ThreadState t, Thread thread) {
        if (thread.isAlive()) return;
        Location l = locations.syncLocation(thread, LocationTable.THREAD, t);
        synchronized (locations.stripe(l)) {
            ThreadState done = l.state;
            if (done != null && done != t) t.acquire(new ThreadState.Moment(done.tid, done.now, done.known));
        }
    }
}
