package dev.vbd.apps;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Shared driver of every workload main: parses {@code --size N --threads N --iterations N}, runs the
 * workload that many times in this JVM, prints the result once on stdout and one timing line per
 * iteration on stderr.
 *
 * <p>Timings go to stderr only, so that stdout is the same for every run with the same arguments
 * (under stock Java, under vbd, on any JDK) and can be compared byte for byte. Every iteration must
 * produce the same result text: a workload whose answer changes between iterations is broken.
 *
 * <p>The timing line has a fixed format, {@code vbd-apps: NAME iteration I time_ms T cpu_ms C}, which
 * the benchmark harness ({@code dev.vbd.bench}) parses: wall time, and the CPU time of the whole JVM
 * (its compiler and collector threads too) over the iteration, where the JVM can tell it.
 */
public abstract class Workload {

    /** Arguments of one run. */
    public record Options(int size, int threads, int iterations) {}

    public static final String TIMING_PREFIX = "vbd-apps: ";

    /** Short name used in timing lines and errors: the one {@link #main} is given. */
    private String name = "workload";

    protected final String name() {
        return name;
    }

    /** Called once before the first iteration (e.g. to start an engine that the iterations share). */
    protected void setUp(Options options) throws Exception {}

    /**
     * Runs one iteration and returns its result text (deterministic for the given options).
     * Must throw when the workload's own check of its answer fails.
     */
    protected abstract String iteration(Options options, int index) throws Exception;

    /** Called once after the last iteration, also after a failure. */
    protected void tearDown() throws Exception {}

    /**
     * Runs the workload and exits the JVM: 0 after a checked, consistent result, 1 otherwise.
     * The explicit exit matters for engines that leave non-daemon threads behind (Spark, Jython).
     */
    public final void main(String name, String[] args, int defaultSize) {
        this.name = name;
        PrintStream err = System.err;
        int status;
        try {
            Options options = parse(args, defaultSize);
            status = run(options);
        } catch (IllegalArgumentException e) {
            err.println(name() + ": " + e.getMessage());
            err.println("usage: " + name() + " [--size N] [--threads N] [--iterations N]");
            status = 2;
        } catch (Throwable t) {
            err.println(name() + ": FAILED: " + t);
            t.printStackTrace(err);
            status = 1;
        }
        System.out.flush();
        err.flush();
        System.exit(status);
    }

    final int run(Options options) throws Exception {
        String first = null;
        setUp(options);
        try {
            for (int i = 0; i < options.iterations(); i++) {
                long cpuStart = processCpuNanos();
                long start = System.nanoTime();
                String result = iteration(options, i);
                long elapsed = System.nanoTime() - start;
                long cpuEnd = processCpuNanos();
                System.err.println(TIMING_PREFIX + name() + " iteration " + i + " time_ms "
                        + String.format(Locale.ROOT, "%.3f", elapsed / 1e6)
                        + (cpuStart < 0 || cpuEnd < 0 ? "" : String.format(Locale.ROOT, " cpu_ms %.3f", (cpuEnd - cpuStart) / 1e6)));
                if (first == null) {
                    first = result;
                } else if (!first.equals(result)) {
                    throw new IllegalStateException("iteration " + i + " gave a different result than iteration 0:\n"
                            + "--- iteration 0 ---\n" + first + "--- iteration " + i + " ---\n" + result);
                }
            }
        } finally {
            tearDown();
        }
        System.out.print(first);
        System.out.println(name() + ": OK");
        return 0;
    }

    /** CPU time of every thread of this JVM so far, or -1 where the JVM does not tell it. */
    private static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : -1;
    }

    static Options parse(String[] args, int defaultSize) {
        int size = defaultSize;
        int threads = 2;
        int iterations = 1;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("missing value after '" + a + "'");
            }
            String v = args[++i];
            switch (a) {
                case "--size" -> size = positive(a, v);
                case "--threads" -> threads = positive(a, v);
                case "--iterations" -> iterations = positive(a, v);
                default -> throw new IllegalArgumentException("unknown option '" + a + "'");
            }
        }
        return new Options(size, threads, iterations);
    }

    private static int positive(String option, String value) {
        int n;
        try {
            n = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " needs a positive integer, got '" + value + "'");
        }
        if (n <= 0) {
            throw new IllegalArgumentException(option + " needs a positive integer, got '" + value + "'");
        }
        return n;
    }

    /** One of the independent jobs of an iteration. */
    protected interface Job<T> {
        T run(int job) throws Exception;
    }

    /**
     * Runs jobs {@code 0..jobs-1} on a fixed pool of {@code threads} threads and returns their results in
     * job order. The number of jobs is the workload's, not the thread count, so that the combined result
     * is the same whatever the thread count. Rethrows the first failed job's exception.
     */
    protected static <T> List<T> inParallel(int threads, int jobs, Job<T> job) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int j = 0; j < jobs; j++) {
                int id = j;
                futures.add(pool.submit(() -> job.run(id)));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> f : futures) {
                try {
                    results.add(f.get());
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof Exception cause) throw cause;
                    throw e;
                }
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Throws with a message naming the check when {@code ok} is false. */
    protected static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("self-check failed: " + what);
        }
    }
}
