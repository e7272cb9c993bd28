package dev.vbd.agent.observe;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;

/**
 * A field of one object (or of a class, for a static field), or the elements of one array, and
 * what the run showed of it: its last write and the reads since, each with the thread's time, as
 * FastTrack keeps them (Flanagan and Freund, 2009). Two accesses of different threads, one of them
 * a write and one of them relaxed (a candidate's), race unless the first happens before the second:
 * through a lock one released and the other took, an SC access (vbd keeps every access that is not
 * relaxed SC: an SC write releases, an SC read of it acquires), a thread's start or join, or a
 * hand-off in the JDK's executors and futures ({@link JdkHandOffs}).
 */
final class Location {
    /** The map key: the object, held weakly, and the field (-1: an array's elements). */
    static final class Key extends WeakReference<Object> {
        final int field;
        final int hash;

        Key(Object o, int field, int hash, ReferenceQueue<Object> queue) {
            super(o, queue);
            this.field = field;
            this.hash = hash;
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object other) {
            if (other == this) return true;
            if (other instanceof Key k) return k.field == field && k.get() == get() && get() != null;
            return false;
        }
    }

    /** A lookup key that holds its object strongly and is never stored. */
    static final class Probe {
        final Object o;
        final int field;
        final int hash;

        Probe(Object o, int field, int hash) {
            this.o = o;
            this.field = field;
            this.hash = hash;
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key k && k.field == field && k.get() == o;
        }
    }

    final Key key;
    /** The first thread that accessed it; null while none has (an array only allocated so far). */
    private ThreadState first;
    /** For an array's elements: where the array was allocated, if the observer saw it. */
    Site allocation;
    /** Whether a second thread has touched it. */
    boolean shared;
    /** Counts the accesses recorded, each under the lock; read without it by {@link Recorder}'s same-epoch shortcut. */
    volatile long stamp;
    /** The first race found on it; read without the lock by {@link Recorder}'s shortcut, hence volatile. */
    volatile String race;
    private ThreadState writer;
    private int writeTime;
    private boolean writeRelaxed;
    private Site writeSite;
    private ThreadState[] readers = new ThreadState[1];
    private int[] readTimes = new int[1];
    private boolean[] readRelaxed = new boolean[1];
    private Site[] readSites = new Site[1];
    private int reads;
    /** The last SC write's moment, which an SC read acquires. */
    private ThreadState.Moment published;
    private volatile int[] candidates = NONE;
    private static final int[] NONE = new int[0];
    /**
     * For a lock: its last release. For a thread: the moment it was started. For an object handed
     * over: what every hand-off not yet taken over happened after.
     */
    ThreadState.Moment released;
    /** For an object handed over: its hand-offs less its take-overs. */
    int handedOver;
    /** For a thread: what the observer knows of it, once it has run. */
    ThreadState state;

    Location(Key key, ThreadState first) {
        this.key = key;
        this.first = first;
    }

    /** Records an access; returns the race it makes with an earlier one, or null. */
    String access(ThreadState t, boolean write, Site site) {
        stamp++;
        boolean relaxed = site.candidate() >= 0;
        if (first == null) first = t;
        else if (t != first) shared = true;
        String found = null;
        if (writer != null && writer != t && writeTime > t.time(writer.tid) && (relaxed || writeRelaxed)) {
            found = describe(writeSite, writer, site, t);
        }
        if (write) {
            for (int i = 0; found == null && i < reads; i++) {
                if (readers[i] != t && readTimes[i] > t.time(readers[i].tid) && (relaxed || readRelaxed[i])) {
                    found = describe(readSites[i], readers[i], site, t);
                }
            }
            writer = t;
            writeTime = t.now;
            writeRelaxed = relaxed;
            writeSite = site;
            java.util.Arrays.fill(readers, 0, reads, null);
            java.util.Arrays.fill(readSites, 0, reads, null);
            reads = 0;
            if (!relaxed) published = t.release();
        } else {
            read(t, relaxed, site);
            if (!relaxed) t.acquire(published);
        }
        if (found != null && race == null) race = found;
        return found;
    }

    private void read(ThreadState t, boolean relaxed, Site site) {
        for (int i = 0; i < reads; i++) {
            if (readers[i] == t) {
                readTimes[i] = t.now;
                // an earlier relaxed read still needs ordering before a later write
                readRelaxed[i] |= relaxed;
                if (relaxed) readSites[i] = site;
                return;
            }
        }
        if (reads == readers.length) {
            readers = java.util.Arrays.copyOf(readers, reads * 2);
            readTimes = java.util.Arrays.copyOf(readTimes, reads * 2);
            readRelaxed = java.util.Arrays.copyOf(readRelaxed, reads * 2);
            readSites = java.util.Arrays.copyOf(readSites, reads * 2);
        }
        readers[reads] = t;
        readTimes[reads] = t.now;
        readRelaxed[reads] = relaxed;
        readSites[reads++] = site;
    }

    private static String describe(Site before, ThreadState beforeThread, Site site, ThreadState t) {
        return site.target() + ": " + before.describe() + " in thread \"" + beforeThread.thread.getName() + "\" and "
                + site.describe() + " in thread \"" + t.thread.getName() + "\", not ordered by a lock, an SC access,"
                + " a thread's start or join, or an executor's or future's hand-off";
    }

    /** Whether an access by {@code t} makes the location shared: a second thread's first. */
    boolean sharedBy(ThreadState t) {
        return !shared && first != null && t != first;
    }

    /** The accesses the location remembers: its last write and the reads since. */
    java.util.List<Site> sites() {
        java.util.List<Site> out = new java.util.ArrayList<>();
        if (writeSite != null) out.add(writeSite);
        for (int i = 0; i < reads; i++) out.add(readSites[i]);
        return out;
    }

    /** Adds a candidate that touched this location; true the first time. */
    boolean touchedBy(int candidate) {
        for (int c : candidates) {
            if (c == candidate) return false;
        }
        candidates = java.util.Arrays.copyOf(candidates, candidates.length + 1);
        candidates[candidates.length - 1] = candidate;
        return true;
    }

    boolean touched(int candidate) {
        for (int c : candidates) {
            if (c == candidate) return true;
        }
        return false;
    }

    int[] candidates() {
        return candidates;
    }
}
