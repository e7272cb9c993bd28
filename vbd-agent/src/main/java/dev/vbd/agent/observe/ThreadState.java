package dev.vbd.agent.observe;

/** What the observer knows of one thread: the locks it holds now, with their hold counts (locks are reentrant). */
final class ThreadState {
    final Thread thread;
    /** The locks held now; replaced, never changed, so a location may keep it as the owner's last lock set. */
    LockSet held = LockSet.EMPTY;
    private Object[] counted = new Object[4];
    private int[] counts = new int[4];
    private int n;

    /** Accesses per candidate method, counted here to keep threads off a shared counter. */
    final long[] accesses;
    /** The locations this thread touched last, by identity hash and field: most accesses repeat one. */
    final Location[] recent = new Location[RECENT];
    final Object[] recentObjects = new Object[RECENT];
    static final int RECENT = 256;

    ThreadState(Thread thread, int candidates) {
        this.thread = thread;
        this.accesses = new long[candidates];
    }

    void acquired(Object lock) {
        for (int i = 0; i < n; i++) {
            if (counted[i] == lock) {
                counts[i]++;
                return;
            }
        }
        if (n == counted.length) {
            counted = java.util.Arrays.copyOf(counted, n * 2);
            counts = java.util.Arrays.copyOf(counts, n * 2);
        }
        counted[n] = lock;
        counts[n++] = 1;
        held = held.with(lock);
    }

    void releasing(Object lock) {
        for (int i = 0; i < n; i++) {
            if (counted[i] == lock) {
                if (--counts[i] == 0) {
                    counted[i] = counted[n - 1];
                    counts[i] = counts[n - 1];
                    counted[--n] = null;
                    held = held.without(lock);
                }
                return;
            }
        }
    }
}
