package dev.vbd.agent.observe;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the observed run saw, as the observer's sites report it: every site ({@link SiteTable}),
 * every location those sites touched ({@link LocationTable}), each thread ({@link ThreadTable})
 * and the orderings between threads ({@link ClockEngine}), and for each candidate method the
 * evidence that relaxing it is safe, or the race that makes it unsafe ({@link EvidenceTally}),
 * written at the end ({@link ObservationReport}).
 */
final class Recorder {
    private final List<String> candidateNames;
    private final Map<String, Integer> candidateIndex = new HashMap<>();
    private final SiteTable sites = new SiteTable();
    private final ThreadTable threads;
    private final EvidenceTally evidence;
    private final LocationTable locations;
    private final ClockEngine clocks;
    /** Per static field site: the class that declares the field, found on first use. */
    private final Map<Integer, Class<?>> declaring = new ConcurrentHashMap<>();
    /** Set when the report is being written: from then on nothing is recorded. */
    private volatile boolean stopped;
    /** The fields and arrays more than one thread touched. */
    final Sharing sharing = new Sharing();

    Recorder(List<String> candidateNames) {
        this.candidateNames = List.copyOf(candidateNames);
        for (int i = 0; i < candidateNames.size(); i++) candidateIndex.put(candidateNames.get(i), i);
        threads = new ThreadTable(candidateNames.size());
        evidence = new EvidenceTally(candidateNames.size());
        locations = new LocationTable(evidence);
        clocks = new ClockEngine(locations);
    }

    /** The candidate index of {@code owner#name(desc)} (owner dotted), or -1. */
    int candidate(String owner, String name, String desc) {
        Integer i = candidateIndex.get(owner + "#" + name + desc);
        return i == null ? -1 : i;
    }

    /** Fields (name:descriptor) and array kinds the candidates can reach; null: everything. */
    private Set<String> fieldsReached;
    private final boolean[] arraysReached = new boolean[8];

    /** Narrows what is watched to what the candidates can reach ({@link ObserveAgent#REACH}). */
    void reach(List<String> lines) {
        if (lines.contains("everything")) return;
        Set<String> fields = new HashSet<>();
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
            int h = LocationTable.hash(array, LocationTable.ELEMENTS);
            LocationTable.Stripe stripe = locations.stripe(h);
            synchronized (stripe) {
                locations.find(stripe, array, LocationTable.ELEMENTS, h, null).allocation = sites.get(siteId);
            }
        } finally {
            t.busy = false;
        }
    }

    /** Whether accesses to elements of arrays of this kind (0 to 7, in the order of the JVM's array opcodes) are watched. */
    boolean watchesArray(int kind) {
        return fieldsReached == null || arraysReached[kind];
    }

    int site(String className, String method, String sourceFile, int line, String target, boolean write,
             int candidate, String fieldName) {
        return sites.site(className, method, sourceFile, line, target, write, candidate, fieldName);
    }

    /** A call on an atomic: an SC access of its value, never a candidate's (the JDK's atomics stay SC under vbd). */
    int atomicSite(String className, String method, String sourceFile, int line, String target) {
        return sites.atomicSite(className, method, sourceFile, line, target);
    }

    void observed() {
        sites.observed();
    }

    void unobserved(String className, Throwable why) {
        sites.unobserved(className, why);
    }

    /**
     * The calling thread's state, marked busy, or null when nothing is to be recorded: the observer
     * itself is running on this thread (its own use of JDK code the observer watches, or vbd
     * rewriting a class), or the report is being written. The caller clears {@link ThreadState#busy}.
     */
    private ThreadState enter() {
        if (stopped) return null;
        ThreadState t = threads.lookUp(Thread.currentThread());
        if (t == null) return register(Thread.currentThread());
        if (t.busy) return null;
        t.busy = true;
        return t;
    }

    /** Marks the calling thread busy while the observer does its own work on it (instrumenting a class); true if it was already. */
    boolean hold() {
        ThreadState t = threads.lookUp(Thread.currentThread());
        if (t == null) t = register(Thread.currentThread());
        else if (t.busy) return true;
        t.busy = true;
        return false;
    }

    void release(boolean wasBusy) {
        if (!wasBusy) threads.lookUp(Thread.currentThread()).busy = false;
    }

    /** A thread's first visit: its state, busy, in the table before anything the observer may watch runs. */
    private ThreadState register(Thread thread) {
        ThreadState t = threads.add(thread);
        clocks.arrived(t);
        return t;
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
        record(t, o, sites.get(siteId).fieldKey(), siteId, write);
    }

    /** {@code field}: the location's key within {@code o}, the site's own but for an atomic array's element. */
    private void record(ThreadState t, Object o, int field, int siteId, boolean write) {
        Site site = sites.get(siteId);
        boolean elements = field == LocationTable.ELEMENTS;
        if (!sharing.touchedBefore(siteId) && (field >= 0 || elements)) sharing.touched(o, siteId, site, elements);
        int c = site.candidate();
        if (c >= 0) t.accesses[c]++;
        int h = LocationTable.hash(o, field);
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
        LocationTable.Stripe stripe = locations.stripe(h);
        long stamp;
        List<Site> madeShared = null;
        Site allocation;
        synchronized (stripe) {
            if (l == null) l = locations.find(stripe, o, field, h, t);
            if (l.sharedBy(t) && (field >= 0 || elements)) madeShared = l.sites();
            allocation = l.allocation;
            String race = l.access(t, write, site);
            if (race != null) {
                for (int k : l.candidates()) evidence.raced(k, race);
            }
            if (c >= 0 && l.touchedBy(c) && l.race != null) evidence.raced(c, l.race);
            stamp = l.stamp;
        }
        // outside the stripe: naming a field takes reflection, which may load classes
        if (elements && (madeShared != null || l.shared && !sharing.arraySiteShared(siteId))) {
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
            int field = AtomicCalls.isArray(op) ? LocationTable.ELEMENT_0 - index : LocationTable.ATOMIC;
            synchronized (locations.stripe(LocationTable.hash(a, field))) {
                Object result = AtomicCalls.apply(a, op, index, x, y);
                if (AtomicCalls.reads(op)) record(t, a, field, siteId, false);
                if (AtomicCalls.wrote(op, x, result)) record(t, a, field, siteId, true);
                return result;
            }
        } finally {
            t.busy = false;
        }
    }

    void accessStatic(Class<?> owner, int siteId, boolean write) {
        ThreadState t = enter();
        if (t == null) return;
        Class<?> holder;
        try {
            holder = holder(owner, siteId);
            Thread runner = holder == null || write ? null : clocks.initialiser(holder);
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
            holder = declaringClass(owner, sites.get(siteId));
            declaring.putIfAbsent(siteId, holder);
        }
        return holder;
    }

    private void recordStatic(ThreadState t, Class<?> holder, int siteId, boolean write) {
        Site site = sites.get(siteId);
        if (holder != null) clocks.afterInitialiser(t, holder);
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
            clocks.initialising(t, c);
        } finally {
            t.busy = false;
        }
    }

    void initialised(Class<?> c) {
        ThreadState t = enter();
        if (t == null) return;
        try {
            clocks.initialised(t, c);
        } finally {
            t.busy = false;
        }
    }

    void constructed(Object o) {
        ThreadState t = enter();
        if (t == null) return;
        try {
            clocks.constructed(t, o);
        } finally {
            t.busy = false;
        }
    }

    void finalizing(Object o) {
        ThreadState t = enter();
        if (t == null) return;
        try {
            clocks.finalizing(t, o);
        } finally {
            t.busy = false;
        }
    }

    void acquired(Object lock) {
        ThreadState t = enter();
        if (t == null) return;
        try {
            clocks.acquired(t, lock);
        } finally {
            t.busy = false;
        }
    }

    void releasing(Object lock) {
        release(lock, LocationTable.LOCK);
    }

    /**
     * Where the JDK hands {@code o} to another thread (a task to an executor's worker, a future's
     * result to its getter): what this thread did so far happens before what follows {@link
     * #takingOver} of it ({@link ClockEngine#handingOver}).
     */
    void handingOver(Object o) {
        ThreadState t = enter();
        if (t == null) return;
        try {
            clocks.handingOver(t, o);
        } finally {
            t.busy = false;
        }
    }

    void takingOver(Object o) {
        ThreadState t = enter();
        if (t == null) return;
        try {
            clocks.takingOver(t, o);
        } finally {
            t.busy = false;
        }
    }

    /** Before {@code thread.start()}: what this thread did so far happens before all the new one does. */
    void starting(Thread thread) {
        release(thread, LocationTable.THREAD);
    }

    private void release(Object o, int kind) {
        ThreadState t = enter();
        if (t == null) return;
        try {
            clocks.released(t, o, kind);
        } finally {
            t.busy = false;
        }
    }

    /** After {@code thread.join()} returned: all the thread did happens before what this one does next. */
    void joined(Thread thread) {
        ThreadState t = enter();
        if (t == null) return;
        try {
            clocks.joined(t, thread);
        } finally {
            t.busy = false;
        }
    }

    /** The run's findings ({@link ObservationReport}); nothing is recorded from here on. */
    void write(Path file) throws IOException {
        stopped = true;
        locations.drain();
        ObservationReport.write(file, candidateNames, threads.accesses(), evidence, sites, sharing);
    }
}
