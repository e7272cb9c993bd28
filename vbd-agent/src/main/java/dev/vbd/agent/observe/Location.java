package dev.vbd.agent.observe;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;

/**
 * A field of one object (or of a class, for a static field), or the elements of one array, and
 * what the run showed of it: Eraser's lock-set algorithm (Savage et al., 1997). A location is
 * exclusive to the thread that first touched it; once a second thread touches it, every access
 * must hold a lock that all accesses since (and the owner's last) held, unless no thread writes it
 * again. A shared location written without such a lock is racy.
 */
final class Location {
    enum State { EXCLUSIVE, SHARED, SHARED_MODIFIED, RACY }

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
    /** Volatile: a thread's cached look at its own location ({@link Recorder}) reads it without the lock. */
    volatile State state = State.EXCLUSIVE;
    ThreadState owner;
    /** The locks the owner held at its last access. */
    LockSet ownerLocks;
    /** Once shared: the locks every access since held. */
    volatile LockSet locks;
    /** Whether a candidate wrote it while it was exclusive: its readers then need a lock to see those writes. */
    boolean writtenByCandidate;
    Site lastSite;
    ThreadState lastThread;
    String race;
    private volatile int[] candidates = NONE;
    private static final int[] NONE = new int[0];

    Location(Key key, ThreadState t, boolean write, Site site) {
        this.key = key;
        this.owner = t;
        this.ownerLocks = t.held;
        this.writtenByCandidate = write && site.candidate() >= 0;
        this.lastSite = site;
        this.lastThread = t;
    }

    /** Returns the race this access makes, or null. */
    String access(ThreadState t, boolean write, Site site) {
        String found = null;
        switch (state) {
            case EXCLUSIVE -> {
                if (t == owner) {
                    ownerLocks = t.held;
                    if (write && site.candidate() >= 0) writtenByCandidate = true;
                } else {
                    locks = ownerLocks.intersect(t.held);
                    state = write ? State.SHARED_MODIFIED : State.SHARED;
                    if (locks.isEmpty() && (write || writtenByCandidate)) {
                        found = describe(t, site, write ? "no lock held in common"
                                : "written by a relaxed candidate, then read by another thread with no lock held in common");
                    }
                }
            }
            case SHARED, SHARED_MODIFIED -> {
                locks = locks.intersect(t.held);
                if (write) state = State.SHARED_MODIFIED;
                if (state == State.SHARED_MODIFIED && locks.isEmpty()) found = describe(t, site, "no lock held in common");
            }
            case RACY -> { }
        }
        if (found != null) {
            state = State.RACY;
            race = found;
        }
        lastSite = site;
        lastThread = t;
        return found;
    }

    private String describe(ThreadState t, Site site, String why) {
        String before = lastThread == t ? "" : lastSite.describe() + " in thread \"" + lastThread.thread.getName() + "\" and ";
        return site.target() + ": " + before + site.describe() + " in thread \"" + t.thread.getName() + "\", " + why;
    }

    /**
     * Whether {@code t}'s access can skip the lock because it would change nothing: the location is
     * still its own and it holds the same locks as at its last access (and it is no candidate's first
     * write), or it reads a shared location holding every lock its accesses held so far, or the
     * location is racy already; and a candidate's access is not the candidate's first. An access
     * another thread's is racing to change the location orders itself before that one.
     */
    boolean unchangedBy(ThreadState t, boolean write, Site site) {
        boolean same = switch (state) {
            case EXCLUSIVE -> owner == t && ownerLocks == t.held && !(write && site.candidate() >= 0 && !writtenByCandidate);
            case SHARED -> !write && locks.within(t.held);
            case SHARED_MODIFIED -> !locks.isEmpty() && locks.within(t.held);
            case RACY -> true;
        };
        if (!same) return false;
        int c = site.candidate();
        if (c < 0) return true;
        for (int k : candidates) {
            if (k == c) return true;
        }
        return false;
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

    int[] candidates() {
        return candidates;
    }
}
