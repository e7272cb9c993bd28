package dev.vbd.agent.observe;

import dev.vbd.core.verify.Json;

import java.io.IOException;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the observed run saw: every site the observer put into the program's code, every location
 * those sites touched ({@link Location}), each thread's vector clock, and for each candidate method
 * the evidence that relaxing it is safe, or the race that makes it unsafe.
 */
final class Recorder {
    private static final int STRIPES = 256;

    private final List<String> candidateNames;
    private final Map<String, Integer> candidateIndex = new HashMap<>();
    private final List<ThreadState> allThreads = new ArrayList<>();
    private final Object threadsLock = new Object();
    /**
     * The threads in {@link #threads}, each one's number its order of arrival; guarded by {@link #threadsLock}.
     * Not {@code allThreads.size()}: a thread registers before it is marked busy, and the JDK's
     * collections may be watched classes, so nothing of the JDK's may run on it before then.
     */
    private int threadCount;
    private final Evidence[] evidence;
    private volatile Site[] sites = new Site[1024];
    private int siteCount;
    private final Map<String, Integer> fieldKeys = new HashMap<>();
    /** Per static field site: the class that declares the field, found on first use. */
    private final Map<Integer, Class<?>> declaring = new ConcurrentHashMap<>();
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
     * thread runs once the object is unreachable: its weak key in {@link #stripes} is cleared by
     * then, the hash is not. The meet keeps it sound where two objects share one.
     */
    private final Map<Integer, ThreadState.Moment> constructed = new HashMap<>();
    private final Stripe[] stripes = new Stripe[STRIPES];
    /**
     * Each thread's state by the thread's identity: not a {@code ThreadLocal}, whose code the observer
     * may be watching (a JDK candidate's class), which would call back here while it looks itself up.
     * Copied on each new thread, so that a lookup takes no lock.
     */
    private volatile ThreadState[] threads = new ThreadState[64];
    /** Set when the report is being written: from then on nothing is recorded. */
    private volatile boolean stopped;
    private final List<String> unobserved = new ArrayList<>();
    /** The fields and arrays more than one thread touched. */
    final Sharing sharing = new Sharing();
    private int observedClasses;

    /** Per candidate: what its locations turned out to be, and the first race one of them had. */
    static final class Evidence {
        long confined;
        long ordered;
        String race;
    }

    private static final class Stripe {
        final HashMap<Object, Location> map = new HashMap<>();
        final ReferenceQueue<Object> queue = new ReferenceQueue<>();
    }

    /**
     * The keys of the locations that stand for a lock, for a thread and for an object handed from
     * thread to thread (a task, a future), beside those of fields (0 up) and arrays.
     */
    private static final int LOCK = -2;
    private static final int THREAD = -3;
    private static final int HANDED = -4;
    /** The key of an atomic's value ({@link AtomicCalls}); an atomic array's element i has {@code ELEMENT_0 - i}. */
    private static final int ATOMIC = -5;
    private static final int ELEMENT_0 = -100;
    private static final int ELEMENTS = -1;

    Recorder(List<String> candidateNames) {
        this.candidateNames = List.copyOf(candidateNames);
        for (int i = 0; i < candidateNames.size(); i++) candidateIndex.put(candidateNames.get(i), i);
        evidence = new Evidence[candidateNames.size()];
        for (int i = 0; i < evidence.length; i++) evidence[i] = new Evidence();
        for (int i = 0; i < STRIPES; i++) stripes[i] = new Stripe();
    }

    /** The candidate index of {@code owner#name(desc)} (owner dotted), or -1. */
    int candidate(String owner, String name, String desc) {
        Integer i = candidateIndex.get(owner + "#" + name + desc);
        return i == null ? -1 : i;
    }

    /** Fields (name:descriptor) and array kinds the candidates can reach; null: everything. */
    private java.util.Set<String> fieldsReached;
    private final boolean[] arraysReached = new boolean[8];

    /** Narrows what is watched to what the candidates can reach ({@link ObserveAgent#REACH}). */
    void reach(List<String> lines) {
        if (lines.contains("everything")) return;
        java.util.Set<String> fields = new java.util.HashSet<>();
        for (String l : lines) {
            if (l.startsWith("field ")) fields.add(l.substring(6).strip());
            if (l.startsWith("array ")) arraysReached[Integer.parseInt(l.substring(6).strip())] = true;
        }
        fieldsReached = fields;
    }

    /**
     * Whether accesses to fields of this name and type are watched: a candidate can touch one, or it
     * holds a reference. Objects pass between threads through references: an SC store and load of
     * one is how most programs order what they hand over, and an ordering left unseen is a race
     * reported that is none.
     */
    boolean watchesField(String nameAndDescriptor) {
        if (fieldsReached == null) return true;
        int colon = nameAndDescriptor.indexOf(':');
        char type = nameAndDescriptor.charAt(colon + 1);
        return type == 'L' || type == '[' || fieldsReached.contains(nameAndDescriptor);
    }

    /** Whether accesses to elements of some kind of array are watched: a bulk copy's kind is known only as it runs. */
    boolean watchesAnyArray() {
        if (fieldsReached == null) return true;
        for (boolean reached : arraysReached) {
            if (reached) return true;
        }
        return false;
    }

    /** Whether arrays are told by their allocation: when everything is watched, as to name what is shared. */
    boolean tracksAllocations() {
        return fieldsReached == null;
    }

    /** An array's allocation: its location remembers where, to name it once shared. */
    void allocated(Object array, int siteId) {
        ThreadState t = enter();
        if (t == null) return;
        try {
            int h = hash(array, ELEMENTS);
            Stripe stripe = stripes[stripeIndex(h)];
            synchronized (stripe) {
                find(stripe, array, ELEMENTS, h, null).allocation = sites[siteId];
            }
        } finally {
            t.busy = false;
        }
    }

    /** Whether accesses to elements of arrays of this kind (0 to 7, in the order of the JVM's array opcodes) are watched. */
    boolean watchesArray(int kind) {
        return fieldsReached == null || arraysReached[kind];
    }

    synchronized int site(String className, String method, String sourceFile, int line, String target, boolean write,
                          int candidate, String fieldName) {
        int key = ELEMENTS;
        if (fieldName != null) {
            Integer k = fieldKeys.get(fieldName);
            if (k == null) {
                k = fieldKeys.size();
                fieldKeys.put(fieldName, k);
            }
            key = k;
        }
        return add(new Site(className, method, sourceFile, line, target, write, candidate, key));
    }

    /** A call on an atomic: an SC access of its value, never a candidate's (the JDK's atomics stay SC under vbd). */
    synchronized int atomicSite(String className, String method, String sourceFile, int line, String target) {
        return add(new Site(className, method, sourceFile, line, target, true, -1, ATOMIC));
    }

    /** The caller holds this recorder's lock. */
    private int add(Site site) {
        Site[] s = sites;
        if (siteCount == s.length) s = java.util.Arrays.copyOf(s, s.length * 2);
        s[siteCount] = site;
        sites = s;
        return siteCount++;
    }

    synchronized void observed() {
        observedClasses++;
    }

    synchronized void unobserved(String className, Throwable why) {
        unobserved.add(className + ": " + why);
    }

    /**
     * The calling thread's state, marked busy, or null when nothing is to be recorded: the observer
     * itself is running on this thread (its own use of JDK code the observer watches, or vbd
     * rewriting a class), or the report is being written. The caller clears {@link ThreadState#busy}.
     */
    private ThreadState enter() {
        if (stopped) return null;
        ThreadState t = lookUp(Thread.currentThread());
        if (t == null) return register(Thread.currentThread());
        if (t.busy) return null;
        t.busy = true;
        return t;
    }

    /** Marks the calling thread busy while the observer does its own work on it (instrumenting a class); true if it was already. */
    boolean hold() {
        ThreadState t = lookUp(Thread.currentThread());
        if (t == null) t = register(Thread.currentThread());
        else if (t.busy) return true;
        t.busy = true;
        return false;
    }

    void release(boolean wasBusy) {
        if (!wasBusy) lookUp(Thread.currentThread()).busy = false;
    }

    /** Only native code and this class's own runs before the thread is marked busy. */
    private ThreadState lookUp(Thread thread) {
        ThreadState[] table = threads;
        int mask = table.length - 1;
        for (int i = System.identityHashCode(thread) & mask; ; i = (i + 1) & mask) {
            ThreadState t = table[i];
            if (t == null || t.thread == thread) return t;
        }
    }

    /** A thread's first visit: its state, busy, in the table before anything the observer may watch runs. */
    private ThreadState register(Thread thread) {
        ThreadState t;
        synchronized (this.threadsLock) {
            ThreadState[] old = threads;
            int count = threadCount++;
            ThreadState[] table = new ThreadState[count * 2 + 2 > old.length ? old.length * 2 : old.length];
            for (ThreadState s : old) if (s != null) put(table, s);
            t = new ThreadState(thread, count, candidateNames.size());
            t.busy = true;
            put(table, t);
            threads = table;
        }
        synchronized (allThreads) {
            allThreads.add(t);
        }
        Location l = syncLocation(t.thread, THREAD, t);
        synchronized (stripe(l)) {
            l.state = t;
            t.acquire(l.released);
        }
        return t;
    }

    private static void put(ThreadState[] table, ThreadState t) {
        int mask = table.length - 1;
        int i = System.identityHashCode(t.thread) & mask;
        while (table[i] != null) i = (i + 1) & mask;
        table[i] = t;
    }

    void access(Object o, int siteId, boolean write) {
        ThreadState t = enter();
        if (t == null) return;
        try {
            record(t, o, siteId, write);
        } finally {
            t.busy = false;
        }
    }

    private void record(ThreadState t, Object o, int siteId, boolean write) {
        record(t, o, sites[siteId].fieldKey(), siteId, write);
    }

    /** {@code field}: the location's key within {@code o}, the site's own but for an atomic array's element. */
    private void record(ThreadState t, Object o, int field, int siteId, boolean write) {
        Site site = sites[siteId];
        if (!sharing.touchedBefore(siteId) && (field >= 0 || field == ELEMENTS)) sharing.touched(o, siteId, site, field == ELEMENTS);
        int c = site.candidate();
        if (c >= 0) t.accesses[c]++;
        int h = hash(o, field);
        int slot = (h ^ (h >>> 8)) & (ThreadState.RECENT - 1);
        Location l = t.recentObjects[slot] == o && t.recent[slot].key.field == field ? t.recent[slot] : null;
        // a racy location's verdict is final: skipping its accesses only drops orderings, never a race
        if (l != null && l.race != null && (c < 0 || l.touched(c))) return;
        // FastTrack's same epoch: nothing touched the location since this thread's last access to it,
        // the thread's time has not moved, and that access was as strong (a write, or this a read) and
        // by the same candidate. This one can then neither race where that one did not nor order
        // anything that one did not; a stamp read stale means this access comes before the other's,
        // which saw the last one as it would have seen this.
        int now = t.now;
        if (l != null && t.recentStamp[slot] == l.stamp && t.recentNow[slot] == now && t.recentCandidate[slot] == c
                && (t.recentWrite[slot] || !write)) {
            return;
        }
        Stripe stripe = stripes[stripeIndex(h)];
        long stamp;
        List<Site> madeShared = null;
        Site allocation;
        synchronized (stripe) {
            if (l == null) l = find(stripe, o, field, h, t);
            if (l.sharedBy(t) && (field >= 0 || field == ELEMENTS)) madeShared = l.sites();
            allocation = l.allocation;
            String race = l.access(t, write, site);
            if (race != null) {
                for (int k : l.candidates()) raced(k, race);
            }
            if (c >= 0 && l.touchedBy(c) && l.race != null) raced(c, l.race);
            stamp = l.stamp;
        }
        // outside the stripe: naming a field takes reflection, which may load classes
        if (field == ELEMENTS && (madeShared != null || l.shared && !sharing.arraySiteShared(siteId))) {
            sharing.array(siteId, site, madeShared == null ? List.of() : madeShared, allocation);
        } else if (madeShared != null) {
            madeShared.add(site);
            sharing.field(o, siteId, site, madeShared);
        }
        t.recent[slot] = l;
        t.recentObjects[slot] = o;
        t.recentStamp[slot] = stamp;
        t.recentNow[slot] = now;
        t.recentCandidate[slot] = c;
        t.recentWrite[slot] = write;
    }

    /**
     * Runs an operation on an atomic ({@link AtomicCalls#apply}) and records it, both under the lock
     * of the atomic's location: the order of the records is the order of the operations, so a read
     * is ordered after the last write it could have seen, and after no later one. (A write recorded
     * after it happened lets a read that saw it look unordered; one recorded before, a read that did
     * not see it look ordered.) A failed compare-and-set is a read only.
     */
    Object atomic(Object a, int op, int index, Object x, Object y, int siteId) {
        ThreadState t = enter();
        if (t == null) return AtomicCalls.apply(a, op, index, x, y);
        try {
            int field = AtomicCalls.isArray(op) ? ELEMENT_0 - index : ATOMIC;
            synchronized (stripes[stripeIndex(hash(a, field))]) {
                Object result = AtomicCalls.apply(a, op, index, x, y);
                if (AtomicCalls.reads(op)) record(t, a, field, siteId, false);
                if (AtomicCalls.wrote(op, x, result)) record(t, a, field, siteId, true);
                return result;
            }
        } finally {
            t.busy = false;
        }
    }

    private static int hash(Object o, int field) {
        return System.identityHashCode(o) * 31 + field;
    }

    /**
     * A stripe from the hash's top bits, after a multiplicative mix: a stripe's map takes its buckets
     * from the low bits, and keys that shared those would share buckets too.
     */
    private static int stripeIndex(int h) {
        return (h * 0x9E3779B9) >>> (32 - Integer.numberOfTrailingZeros(STRIPES));
    }

    private Stripe stripe(Location l) {
        return stripes[stripeIndex(l.key.hash)];
    }

    /** The location of {@code o}'s field, made on first use; the caller holds the stripe. */
    private Location find(Stripe stripe, Object o, int field, int h, ThreadState t) {
        purge(stripe);
        Location l = stripe.map.get(new Location.Probe(o, field, h));
        if (l == null) {
            l = new Location(new Location.Key(o, field, h, stripe.queue), t);
            stripe.map.put(l.key, l);
        }
        return l;
    }

    /** The location standing for a lock or a thread. */
    private Location syncLocation(Object o, int kind, ThreadState t) {
        int h = hash(o, kind);
        Stripe stripe = stripes[stripeIndex(h)];
        synchronized (stripe) {
            return find(stripe, o, kind, h, t);
        }
    }

    void accessStatic(Class<?> owner, int siteId, boolean write) {
        ThreadState t = enter();
        if (t == null) return;
        Class<?> holder;
        try {
            holder = holder(owner, siteId);
            Thread runner = holder == null || write ? null : initialising.get(holder);
            if (runner == null || runner == t.thread) {
                recordStatic(t, holder, siteId, write);
                return;
            }
        } finally {
            t.busy = false;
        }
        // another thread runs the initialiser of the class that declares the field: the getstatic
        // would wait for it to end; waiting here, as the program and not as the observer, lets the
        // read be checked once it is ordered after that end
        try {
            Class.forName(holder.getName(), true, holder.getClassLoader());
        } catch (Throwable failed) {
            // the getstatic fails the same way
        }
        t = enter();
        if (t == null) return;
        try {
            recordStatic(t, holder, siteId, write);
        } finally {
            t.busy = false;
        }
    }

    /** The class that declares the static field a site names, found on first use; null for a class too old for class constants. */
    private Class<?> holder(Class<?> owner, int siteId) {
        if (owner == null) return null;
        // not computeIfAbsent: reflection may load classes, whose loader may be the program's own
        // code, observed, which would come back here
        Class<?> holder = declaring.get(siteId);
        if (holder == null) {
            holder = declaringClass(owner, sites[siteId]);
            declaring.putIfAbsent(siteId, holder);
        }
        return holder;
    }

    private void recordStatic(ThreadState t, Class<?> holder, int siteId, boolean write) {
        Site site = sites[siteId];
        if (holder != null) t.acquire(initialised.get(holder));
        // a class too old for class constants: its field by name alone, which over-approximates sharing
        record(t, holder == null ? site.target().substring(0, site.target().lastIndexOf('.')).intern() : holder, siteId, write);
    }

    /** The class that declares the static field a site names through {@code owner}, which may inherit it. */
    private static Class<?> declaringClass(Class<?> owner, Site site) {
        java.lang.reflect.Field f = Sharing.declared(owner, site);
        return f == null ? owner : f.getDeclaringClass();
    }

    void initialising(Class<?> c) {
        ThreadState t = enter();
        if (t == null) return;
        try {
            initialising.put(c, t.thread);
        } finally {
            t.busy = false;
        }
    }

    void initialised(Class<?> c) {
        ThreadState t = enter();
        if (t == null) return;
        try {
            initialised.put(c, t.release());
            initialising.remove(c);
        } finally {
            t.busy = false;
        }
    }

    void constructed(Object o) {
        ThreadState t = enter();
        if (t == null) return;
        try {
            Integer h = System.identityHashCode(o);
            ThreadState.Moment now = t.release();
            synchronized (constructed) {
                ThreadState.Moment before = constructed.get(h);
                constructed.put(h, before == null ? now : ThreadState.meet(before, now));
            }
        } finally {
            t.busy = false;
        }
    }

    void finalizing(Object o) {
        ThreadState t = enter();
        if (t == null) return;
        try {
            ThreadState.Moment m;
            synchronized (constructed) {
                m = constructed.get(System.identityHashCode(o));
            }
            t.acquire(m);
        } finally {
            t.busy = false;
        }
    }

    void acquired(Object lock) {
        ThreadState t = enter();
        if (t == null) return;
        try {
            Location l = syncLocation(lock, LOCK, t);
            synchronized (stripe(l)) {
                t.acquire(l.released);
            }
        } finally {
            t.busy = false;
        }
    }

    void releasing(Object lock) {
        release(lock, LOCK);
    }

    /**
     * Where the JDK hands {@code o} to another thread (a task to an executor's worker, a future's
     * result to its getter): what this thread did so far happens before what follows {@link
     * #takingOver} of it. One object may be handed over again before it was taken over (one task
     * submitted twice), and a taker cannot tell which hand-off it took: it is then ordered after
     * only what all of them were (their clocks' meet).
     */
    void handingOver(Object o) {
        ThreadState t = enter();
        if (t == null) return;
        try {
            Location l = syncLocation(o, HANDED, t);
            synchronized (stripe(l)) {
                ThreadState.Moment now = t.release();
                l.released = l.handedOver > 0 ? ThreadState.meet(l.released, now) : now;
                l.handedOver = Math.max(l.handedOver, 0) + 1;
            }
        } finally {
            t.busy = false;
        }
    }

    void takingOver(Object o) {
        ThreadState t = enter();
        if (t == null) return;
        try {
            Location l = syncLocation(o, HANDED, t);
            synchronized (stripe(l)) {
                t.acquire(l.released);
                l.handedOver--;
            }
        } finally {
            t.busy = false;
        }
    }

    /** Before {@code thread.start()}: what this thread did so far happens before all the new one does. */
    void starting(Thread thread) {
        release(thread, THREAD);
    }

    private void release(Object o, int kind) {
        ThreadState t = enter();
        if (t == null) return;
        try {
            Location l = syncLocation(o, kind, t);
            synchronized (stripe(l)) {
                l.released = t.release();
            }
        } finally {
            t.busy = false;
        }
    }

    /** After {@code thread.join()} returned: all the thread did happens before what this one does next. */
    void joined(Thread thread) {
        ThreadState t = enter();
        if (t == null) return;
        try {
            if (thread.isAlive()) return;
            Location l = syncLocation(thread, THREAD, t);
            synchronized (stripe(l)) {
                ThreadState done = l.state;
                if (done != null && done != t) t.acquire(new ThreadState.Moment(done.tid, done.now, done.known));
            }
        } finally {
            t.busy = false;
        }
    }

    private void raced(int candidate, String race) {
        Evidence e = evidence[candidate];
        synchronized (e) {
            if (e.race == null) e.race = race;
        }
    }

    private void purge(Stripe stripe) {
        Reference<?> r;
        while ((r = stripe.queue.poll()) != null) {
            Location l = stripe.map.remove(r);
            if (l != null) tally(l);
        }
    }

    private void tally(Location l) {
        if (l.race != null) return;
        for (int c : l.candidates()) {
            Evidence e = evidence[c];
            synchronized (e) {
                if (l.shared) {
                    e.ordered++;
                } else {
                    e.confined++;
                }
            }
        }
    }

    /** The run's findings, as JSON: one entry per candidate, in the order given. */
    void write(Path file) throws IOException {
        stopped = true;
        for (Stripe s : stripes) {
            synchronized (s) {
                purge(s);
                for (Location l : s.map.values()) tally(l);
                s.map.clear();
            }
        }
        long[] accesses = new long[candidateNames.size()];
        synchronized (allThreads) {
            for (ThreadState t : allThreads) {
                for (int i = 0; i < accesses.length; i++) accesses[i] += t.accesses[i];
            }
        }
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < candidateNames.size(); i++) {
            Evidence e = evidence[i];
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("method", candidateNames.get(i));
            synchronized (e) {
                m.put("accesses", accesses[i]);
                m.put("confined", e.confined);
                m.put("ordered", e.ordered);
                m.put("race", e.race);
            }
            out.add(m);
        }
        Map<String, Object> report = new LinkedHashMap<>();
        synchronized (this) {
            report.put("observedClasses", (long) observedClasses);
            report.put("sites", (long) siteCount);
            report.put("unobserved", new ArrayList<Object>(unobserved));
        }
        report.put("candidates", out);
        report.put("shared", sharing.json());
        Files.writeString(file, Json.write(report), StandardCharsets.UTF_8);
    }
}
