package dev.vbd.apps.sharing;

/**
 * Elements of one array: per-worker slots in a {@code long[]} that a private field of a small
 * class holds, as a striped counter keeps its cells before it pads them. Fixed by hand: a stride of
 * 16 longs (128 bytes) between the slots, and a stride before the first, away from the array's
 * header, whose length every bounds check reads (as JCTools pads the arrays of its queues).
 */
public final class SlotArray extends SharingWorkload {
    static final int STRIDE = 16;

    static final class Slots {
        private final long[] counts;

        Slots(int n) {
            counts = new long[n];
        }

        void add(int slot, long d) {
            counts[slot] += d;
        }

        long sum() {
            long s = 0;
            for (long c : counts) s += c;
            return s;
        }
    }

    static final class PaddedSlots {
        private final long[] counts;

        PaddedSlots(int n) {
            counts = new long[(n + 1) * STRIDE];
        }

        void add(int slot, long d) {
            counts[(slot + 1) * STRIDE] += d;
        }

        long sum() {
            long s = 0;
            for (long c : counts) s += c;
            return s;
        }
    }

    SlotArray(boolean fixed) {
        super(fixed);
    }

    public static void main(String[] args) {
        new SlotArray(false).main("fs-slots", args, 40);
    }

    public static final class Fixed {
        public static void main(String[] args) {
            new SlotArray(true).main("fs-slots-fixed", args, 40);
        }
    }

    @Override
    protected Object setUp(int threads, boolean fixed) {
        return fixed ? new PaddedSlots(threads) : new Slots(threads);
    }

    @Override
    protected long run(Object state, int part, int parts, long total, boolean fixed) {
        long first = first(total, parts, part);
        long end = first + steps(total, parts, part);
        long sum = 0;
        if (fixed) {
            PaddedSlots slots = (PaddedSlots) state;
            for (long i = first; i < end; i++) {
                long d = value(i);
                sum += d;
                slots.add(part, d);
            }
        } else {
            Slots slots = (Slots) state;
            for (long i = first; i < end; i++) {
                long d = value(i);
                sum += d;
                slots.add(part, d);
            }
        }
        return sum;
    }

    @Override
    protected long checksum(Object state, int parts, boolean fixed) {
        return fixed ? ((PaddedSlots) state).sum() : ((Slots) state).sum();
    }
}
