package dev.vbd.agent.observe;

/**
 * What the observer knows of one thread: its vector clock, as the time it has reached itself
 * ({@link #now}) and what it knows of every other thread's ({@link #known}, never changed in place, so
 * a location or a lock can keep it as it is).
 */
final class ThreadState {
    final Thread thread;
    final int tid;
    int now = 1;
    int[] known = new int[0];
    /** Accesses per candidate method, counted here to keep threads off a shared counter. */
    final long[] accesses;
    /** Set while the observer runs on this thread: what it does then is its own, not the program's. */
    boolean busy;
    /** The locations this thread touched last, by identity hash and field: most accesses repeat one. */
    final Location[] recent = new Location[RECENT];
    final Object[] recentObjects = new Object[RECENT];
    /**
     * Of this thread's last access to each recent location: the location's stamp after it, this
     * thread's time before it, the candidate that made it (-1: none) and whether it wrote.
     */
    final long[] recentStamp = new long[RECENT];
    final int[] recentNow = new int[RECENT];
    final int[] recentCandidate = new int[RECENT];
    final boolean[] recentWrite = new boolean[RECENT];
    static final int RECENT = 256;

    ThreadState(Thread thread, int tid, int candidates) {
        this.thread = thread;
        this.tid = tid;
        this.accesses = new long[candidates];
    }

    /** This thread's time for thread {@code u}. */
    int time(int u) {
        return u == tid ? now : u < known.length ? known[u] : 0;
    }

    /** A release: what happened so far in this thread happens before what acquires this moment. */
    Moment release() {
        Moment m = new Moment(tid, now, known);
        now++;
        return m;
    }

    /** An acquire: what happened before {@code m} happens before what this thread does next. */
    void acquire(Moment m) {
        if (m == null || m.tid() == tid) return;
        int[] k = known;
        boolean more = m.tid() >= 0 && m.now() > (m.tid() < k.length ? k[m.tid()] : 0);
        for (int i = 0; !more && i < m.known().length; i++) more = i != tid && m.known()[i] > (i < k.length ? k[i] : 0);
        if (!more) return;
        int[] joined = java.util.Arrays.copyOf(k, Math.max(k.length, Math.max(m.known().length, m.tid() + 1)));
        for (int i = 0; i < m.known().length; i++) if (i != tid) joined[i] = Math.max(joined[i], m.known()[i]);
        if (m.tid() >= 0) joined[m.tid()] = Math.max(joined[m.tid()], m.now());
        known = joined;
    }

    /**
     * What happened before both {@code a} and {@code b}: their clocks' least element-wise, as a moment
     * of no one thread ({@link Moment#NO_THREAD}), whose times are all in {@code known}.
     */
    static Moment meet(Moment a, Moment b) {
        if (a == null || b == null) return null;
        int[] va = a.vector();
        int[] vb = b.vector();
        int[] min = new int[Math.min(va.length, vb.length)];
        for (int i = 0; i < min.length; i++) min[i] = Math.min(va[i], vb[i]);
        return new Moment(Moment.NO_THREAD, 0, min);
    }

    /** A thread's clock at a release: its own time and what it knew then. */
    record Moment(int tid, int now, int[] known) {
        static final int NO_THREAD = -1;

        /** Every thread's time in this moment, its own included. */
        int[] vector() {
            if (tid < 0) return known;
            int[] v = java.util.Arrays.copyOf(known, Math.max(known.length, tid + 1));
            v[tid] = now;
            return v;
        }
    }
}
