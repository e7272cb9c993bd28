package dev.vbd.agent.observe;

import java.util.ArrayList;
import java.util.List;

/**
 * Each observed thread's state by the thread's identity: not a {@code ThreadLocal}, whose code the
 * observer may be watching (a JDK candidate's class), which would call back here while it looks
 * itself up. Copied on each new thread, so that a lookup takes no lock.
 */
final class ThreadTable {
    private final int candidates;
    private final List<ThreadState> allThreads = new ArrayList<>();
    private final Object threadsLock = new Object();
    /**
     * The threads in {@link #threads}, each one's number its order of arrival; guarded by {@link #threadsLock}.
     * Not {@code allThreads.size()}: a thread registers before it is marked busy, and the JDK's
     * collections may be watched classes, so nothing of the JDK's may run on it before then.
     */
    private int threadCount;
    private volatile ThreadState[] threads = new ThreadState[64];

    ThreadTable(int candidates) {
        this.candidates = candidates;
    }

    /** A thread's state, or null before its first visit. Only native code and this class's own runs. */
    ThreadState lookUp(Thread thread) {
        ThreadState[] table = threads;
        int mask = table.length - 1;
        for (int i = System.identityHashCode(thread) & mask; ; i = (i + 1) & mask) {
            ThreadState t = table[i];
            if (t == null || t.thread == thread) return t;
        }
    }

    /** A thread's first visit: its state, busy, in the table before anything the observer may watch runs. */
    ThreadState add(Thread thread) {
        ThreadState t;
        synchronized (this.threadsLock) {
            ThreadState[] old = threads;
            int count = threadCount++;
            ThreadState[] table = new ThreadState[count * 2 + 2 > old.length ? old.length * 2 : old.length];
            for (ThreadState s : old) if (s != null) put(table, s);
            t = new ThreadState(thread, count, candidates);
            t.busy = true;
            put(table, t);
            threads = table;
        }
        synchronized (allThreads) {
            allThreads.add(t);
        }
        return t;
    }

    private static void put(ThreadState[] table, ThreadState t) {
        int mask = table.length - 1;
        int i = System.identityHashCode(t.thread) & mask;
        while (table[i] != null) i = (i + 1) & mask;
        table[i] = t;
    }

    /** Per candidate: the accesses of every thread so far. */
    long[] accesses() {
        long[] accesses = new long[candidates];
        synchronized (allThreads) {
            for (ThreadState t : allThreads) {
                for (int i = 0; i < accesses.length; i++) accesses[i] += t.accesses[i];
            }
        }
        return accesses;
    }
}
