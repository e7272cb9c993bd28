package dev.vbd.bench.control;

import dev.vbd.apps.Workload;

/**
 * The positive control of the benchmark: stores in a tight loop to the fields and an array of one
 * object reachable from a static field, so any thread could read them. Stock Java compiles each to
 * a plain {@code mov}; sequential consistency needs each store ordered before every later load,
 * which on x86 is a locked instruction or a fence per store. If the harness cannot see that cost
 * here, it cannot see it anywhere. Same driver and timing lines as the workloads of vbd-apps.
 */
public final class StoreLoop extends Workload {
    public static final String NAME = "store-loop";
    /** Loop trips per iteration: about half a second per iteration under vbd on the 2-core machine. */
    public static final int FULL_SIZE = 20_000_000;
    /** A fifth of that: past the first iteration, C2 has compiled the loop even in a quick run. */
    public static final int QUICK_SIZE = 4_000_000;

    static final class Cell {
        int a;
        int b;
        final int[] ring = new int[64];
    }

    static Cell shared = new Cell();

    @Override
    protected String iteration(Options options, int index) {
        Cell c = new Cell();
        shared = c;
        int n = options.size();
        for (int i = 0; i < n; i++) {
            c.a = i;
            c.b = i ^ 0x5bd1e995;
            c.ring[i & 63] = c.a + c.b;
        }
        long sum = 0;
        for (int v : c.ring) sum += v;
        long expected = 0;
        for (int i = Math.max(0, n - 64); i < n; i++) expected += i + (i ^ 0x5bd1e995);
        check(sum == expected, "ring sum " + sum + " != " + expected);
        check(c.a == n - 1, "last store " + c.a + " != " + (n - 1));
        return "a=" + c.a + " b=" + c.b + " ring=" + sum + "\n";
    }

    public static void main(String[] args) {
        new StoreLoop().main(NAME, args, FULL_SIZE);
    }
}
