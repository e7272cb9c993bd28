package dev.vbd.apps.sharing;

import dev.vbd.apps.Workload;

import java.util.List;

/**
 * A workload with false sharing planted, for {@code vbd layout} and the bench's false-sharing
 * suite: each iteration sets up its shared state on the main thread, then each of the threads does
 * its share of {@code size} million steps on its own part of that state. The result is a checksum
 * of the state, the same for every thread count. Each workload has a variant with the fix a
 * programmer would make by hand ({@code fixed}), which computes the same. Each writes its loop once
 * per variant, over the variant's own class, as a programmer would have: one loop over both would
 * leave the JIT a type check and two field offsets in the hot path.
 */
public abstract class SharingWorkload extends Workload {
    static final long STEPS_PER_SIZE = 1_000_000;

    private final boolean fixed;

    protected SharingWorkload(boolean fixed) {
        this.fixed = fixed;
    }

    /** The shared state of one iteration, on the main thread. */
    protected abstract Object setUp(int threads, boolean fixed);

    /**
     * Thread {@code part} of {@code parts}: its steps of the iteration's {@code total} ({@link #first},
     * {@link #steps}) on its own part of {@code state}; the sum of the values it added ({@link #value}).
     */
    protected abstract long run(Object state, int part, int parts, long total, boolean fixed) throws Exception;

    /** The first of part {@code part}'s steps: each part has a run of consecutive steps, the first part the remainder too. */
    static long first(long total, int parts, int part) {
        return part == 0 ? 0 : total % parts + part * (total / parts);
    }

    static long steps(long total, int parts, int part) {
        return total / parts + (part == 0 ? total % parts : 0);
    }

    /** A checksum of the state once every part is done. */
    protected abstract long checksum(Object state, int parts, boolean fixed);

    @Override
    protected final String iteration(Options options, int index) throws Exception {
        int parts = options.threads();
        long total = options.size() * STEPS_PER_SIZE;
        Object state = setUp(parts, fixed);
        List<Long> sums = inParallel(parts, parts, part -> run(state, part, parts, total, fixed));
        long sum = 0;
        for (long s : sums) sum += s;
        long check = checksum(state, parts, fixed);
        check(check == sum, "the state's checksum " + check + " is what the threads did, " + sum);
        return "steps " + total + " checksum " + Long.toHexString(sum * 0x9E3779B97F4A7C15L);
    }

    /**
     * The value step {@code i} adds (0 to 15): a little work between two updates of the shared
     * state, and the same sum over the steps however the threads split them (SplitMix64's mix).
     */
    static long value(long i) {
        long z = i * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return (z ^ (z >>> 31)) >>> 60;
    }
}
