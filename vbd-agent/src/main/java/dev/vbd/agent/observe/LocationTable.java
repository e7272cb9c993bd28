package dev.vbd.agent.observe;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.util.HashMap;

/**
 * Every location the observed sites touched ({@link Location}), by object and key, in stripes each
 * guarded by its own lock. An object's locations go once the object is unreachable; each is then
 * tallied ({@link EvidenceTally}).
 */
final class LocationTable {
    private static final int STRIPES = 256;

    /**
     * The keys of the locations that stand for a lock, for a thread and for an object handed from
     * thread to thread (a task, a future), beside those of fields (0 up) and arrays.
     */
    static final int LOCK = -2;
    static final int THREAD = -3;
    static final int HANDED = -4;
    /** The key of an atomic's value ({@link AtomicCalls}); an atomic array's element i has {@code ELEMENT_0 - i}. */
    static final int ATOMIC = -5;
    static final int ELEMENT_0 = -100;
    static final int ELEMENTS = -1;

    /** One lock's share of the table: synchronise on it to use what {@link #find} returns from it. */
    static final class Stripe {
        private final HashMap<Object, Location> map = new HashMap<>();
        private final ReferenceQueue<Object> queue = new ReferenceQueue<>();
    }

    private final Stripe[] stripes = new Stripe[STRIPES];
    private final EvidenceTally evidence;

    LocationTable(EvidenceTally evidence) {
        this.evidence = evidence;
        for (int i = 0; i < STRIPES; i++) stripes[i] = new Stripe();
    }

    static int hash(Object o, int field) {
        return System.identityHashCode(o) * 31 + field;
    }

    /** The stripe of a location's hash ({@link #hash}). */
    Stripe stripe(int h) {
        return stripes[stripeIndex(h)];
    }

    Stripe stripe(Location l) {
        return stripes[stripeIndex(l.key.hash)];
    }

    /**
     * A stripe from the hash's top bits, after a multiplicative mix: a stripe's map takes its buckets
     * from the low bits, and keys that shared those would share buckets too.
     */
    private static int stripeIndex(int h) {
        return (h * 0x9E3779B9) >>> (32 - Integer.numberOfTrailingZeros(STRIPES));
    }

    /** The location of {@code o}'s field, made on first use; the caller holds the stripe. */
    Location find(Stripe stripe, Object o, int field, int h, ThreadState t) {
        purge(stripe);
        Location l = stripe.map.get(new Location.Probe(o, field, h));
        if (l == null) {
            l = new Location(new Location.Key(o, field, h, stripe.queue), t);
            stripe.map.put(l.key, l);
        }
        return l;
    }

    /** The location standing for a lock or a thread. */
    Location syncLocation(Object o, int kind, ThreadState t) {
        int h = hash(o, kind);
        Stripe stripe = stripe(h);
        synchronized (stripe) {
            return find(stripe, o, kind, h, t);
        }
    }

    private void purge(Stripe stripe) {
        Reference<?> r;
        while ((r = stripe.queue.poll()) != null) {
            Location l = stripe.map.remove(r);
            if (l != null) evidence.tally(l);
        }
    }

    /** Tallies and drops every location: the run is over. */
    void drain() {
        for (Stripe s : stripes) {
            synchronized (s) {
                purge(s);
                for (Location l : s.map.values()) evidence.tally(l);
                s.map.clear();
            }
        }
    }
}
