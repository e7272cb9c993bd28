package dev.vbd.apps.sharing;

/**
 * Objects allocated next to each other: a counter object per worker, allocated one after the other
 * in one loop (16 or 24 bytes each), each updated by its own worker. Fixed by hand: the counter
 * class padded to more than a cache line on both sides of its count.
 */
public final class WorkerCounters extends SharingWorkload {
    static final class Counter {
        long count;
    }

    static final class PaddedCounter {
        long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
        long count;
        long q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;
    }

    WorkerCounters(boolean fixed) {
        super(fixed);
    }

    public static void main(String[] args) {
        new WorkerCounters(false).main("fs-counters", args, 40);
    }

    public static final class Fixed {
        public static void main(String[] args) {
            new WorkerCounters(true).main("fs-counters-fixed", args, 40);
        }
    }

    @Override
    protected Object setUp(int threads, boolean fixed) {
        Object[] counters = new Object[threads];
        for (int t = 0; t < threads; t++) counters[t] = fixed ? new PaddedCounter() : new Counter();
        return counters;
    }

    @Override
    protected long run(Object state, int part, int parts, long total, boolean fixed) {
        long first = first(total, parts, part);
        long end = first + steps(total, parts, part);
        Object mine = ((Object[]) state)[part];
        long sum = 0;
        if (fixed) {
            PaddedCounter c = (PaddedCounter) mine;
            for (long i = first; i < end; i++) {
                long d = value(i);
                sum += d;
                c.count += d;
            }
        } else {
            Counter c = (Counter) mine;
            for (long i = first; i < end; i++) {
                long d = value(i);
                sum += d;
                c.count += d;
            }
        }
        return sum;
    }

    @Override
    protected long checksum(Object state, int parts, boolean fixed) {
        long sum = 0;
        for (Object o : (Object[]) state) sum += fixed ? ((PaddedCounter) o).count : ((Counter) o).count;
        return sum;
    }
}
