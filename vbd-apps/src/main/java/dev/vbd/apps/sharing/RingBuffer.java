package dev.vbd.apps.sharing;

/**
 * A producer and a consumer whose indices share a line: a single-producer single-consumer ring
 * buffer (Lamport's), its head and tail in one object, as in a queue without its padding. Threads
 * pair up, each pair with a ring of its own that carries both threads' steps; an odd thread out
 * produces and consumes alone. The producer spins while the ring is full, the consumer while it is
 * empty. Fixed by hand: 15 longs of padding between the head and the tail, and around them, as
 * JCTools pads its queues.
 */
public final class RingBuffer extends SharingWorkload {
    static final int CAPACITY = 1024;

    /** The indices are volatile, as a queue's must be on stock Java; under vbd every access is SC anyway. */
    static class Ring {
        final long[] slots = new long[CAPACITY];
        volatile long head;
        volatile long tail;
        /** What the consumer took out, once it is done. */
        volatile long consumed;

        long head() { return head; }
        long tail() { return tail; }
        void head(long h) { head = h; }
        void tail(long t) { tail = t; }
    }

    static final class PaddedRing extends Ring {
        long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
        volatile long paddedHead;
        long q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;
        volatile long paddedTail;
        long r01, r02, r03, r04, r05, r06, r07, r08, r09, r10, r11, r12, r13, r14, r15;

        @Override long head() { return paddedHead; }
        @Override long tail() { return paddedTail; }
        @Override void head(long h) { paddedHead = h; }
        @Override void tail(long t) { paddedTail = t; }
    }

    RingBuffer(boolean fixed) {
        super(fixed);
    }

    public static void main(String[] args) {
        new RingBuffer(false).main("fs-queue", args, 10);
    }

    public static final class Fixed {
        public static void main(String[] args) {
            new RingBuffer(true).main("fs-queue-fixed", args, 10);
        }
    }

    @Override
    protected Object setUp(int threads, boolean fixed) {
        Ring[] rings = new Ring[(threads + 1) / 2];
        for (int i = 0; i < rings.length; i++) rings[i] = fixed ? new PaddedRing() : new Ring();
        return rings;
    }

    /**
     * The even thread of a pair produces its own steps and then its partner's, which follow its own;
     * the odd one consumes as many and returns their sum.
     */
    @Override
    protected long run(Object state, int part, int parts, long total, boolean fixed) {
        Ring ring = ((Ring[]) state)[part / 2];
        if (parts % 2 == 1 && part == parts - 1) return alone(ring, first(total, parts, part), steps(total, parts, part));
        int even = part - part % 2;
        long items = steps(total, parts, even) + steps(total, parts, even + 1);
        if (part == even) {
            produce(ring, first(total, parts, even), items);
            return 0;
        }
        return consume(ring, items);
    }

    private static void produce(Ring ring, long first, long items) {
        long[] slots = ring.slots;
        for (long t = 0; t < items; t++) {
            while (t - ring.head() >= CAPACITY) Thread.onSpinWait();
            slots[(int) (t & (CAPACITY - 1))] = value(first + t);
            ring.tail(t + 1);
        }
    }

    private static long consume(Ring ring, long items) {
        long sum = 0;
        long[] slots = ring.slots;
        for (long h = 0; h < items; h++) {
            while (ring.tail() <= h) Thread.onSpinWait();
            sum += slots[(int) (h & (CAPACITY - 1))];
            ring.head(h + 1);
        }
        ring.consumed = sum;
        return sum;
    }

    private static long alone(Ring ring, long first, long items) {
        long[] slots = ring.slots;
        long sum = 0;
        for (long t = 0; t < items; t++) {
            slots[(int) (t & (CAPACITY - 1))] = value(first + t);
            ring.tail(t + 1);
            sum += slots[(int) (t & (CAPACITY - 1))];
            ring.head(t + 1);
        }
        ring.consumed = sum;
        return sum;
    }

    @Override
    protected long checksum(Object state, int parts, boolean fixed) {
        long sum = 0;
        for (Ring r : (Ring[]) state) sum += r.head() == r.tail() ? r.consumed : Long.MIN_VALUE / 4;
        return sum;
    }
}
