package dev.vbd.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The command line of {@code bin/vbd bench}. {@code --quick} and {@code --full} choose the counts;
 * any count given explicitly wins over the mode's. Every error names the argument it is about.
 */
public final class BenchOptions {

    public enum Mode { QUICK, FULL }

    /**
     * Invocations of the negative control in a full run: with 4, or even 8, one slow invocation in either
     * configuration widens its interval past what can tell 1.00 from the overheads measured.
     */
    static final int FULL_NEGATIVE_INVOCATIONS = 12;

    public final Mode mode;
    public final boolean jmhOnly;
    public final boolean dryRun;
    public final List<String> workloads;
    public final List<Config> configs;
    public final Path relaxed;
    public final int invocations;
    /** Invocations per configuration at the thread counts below the headline one. */
    public final int sweepInvocations;
    /** Invocations per configuration at the negative control's point (it needs a narrow interval). */
    public final int negativeInvocations;
    public final int iterations;
    public final int warmup;
    public final List<Integer> threads;
    public final Map<String, Integer> sizes;
    public final String heap;
    public final String java;
    public final boolean controls;
    public final boolean jmh;
    public final Path out;
    public final Path json;
    /** The target half-width of the headline intervals, a fraction (0.05 for 5%); null: fixed counts. */
    public final Double precision;
    /** With {@link #precision}: invocations per configuration a workload may reach. */
    public final int maxInvocations;
    /** What {@code --jmh} runs: the forks, benchmarks and tiers. */
    final Micro.Settings jmhSettings;

    private BenchOptions(Mode mode, boolean jmhOnly, boolean dryRun, List<String> workloads, List<Config> configs,
                         Path relaxed, int invocations, int sweepInvocations, int negativeInvocations, int iterations, int warmup, List<Integer> threads, Map<String, Integer> sizes,
                         String heap, String java, boolean controls, boolean jmh, Path out, Path json,
                         Double precision, int maxInvocations, Micro.Settings jmhSettings) {
        this.mode = mode;
        this.jmhOnly = jmhOnly;
        this.dryRun = dryRun;
        this.workloads = workloads;
        this.configs = configs;
        this.relaxed = relaxed;
        this.invocations = invocations;
        this.sweepInvocations = sweepInvocations;
        this.negativeInvocations = negativeInvocations;
        this.iterations = iterations;
        this.warmup = warmup;
        this.threads = threads;
        this.sizes = sizes;
        this.heap = heap;
        this.java = java;
        this.controls = controls;
        this.jmh = jmh;
        this.out = out;
        this.json = json;
        this.precision = precision;
        this.maxInvocations = maxInvocations;
        this.jmhSettings = jmhSettings;
    }

    /** The thread count of the headline figures: the highest one asked for. */
    public int headlineThreads() {
        return threads.stream().mapToInt(Integer::intValue).max().orElseThrow();
    }

    /**
     * Parses the arguments after {@code bench}. {@code known} are the workload names, {@code quickWorkload}
     * the one a quick run uses, {@code defaultOut} the output directory when none is given.
     *
     * @throws IllegalArgumentException naming the bad argument
     * @throws CommandLines.HelpRequested for {@code -h} or {@code --help}
     */
    public static BenchOptions parse(List<String> args, List<String> known, String quickWorkload, Path defaultOut) {
        return parse(args, known, List.of(), quickWorkload, defaultOut);
    }

    /**
     * As above, with the suite of workloads with false sharing planted ({@code --workloads false-sharing}),
     * which 'all' and the full run leave out.
     */
    public static BenchOptions parse(List<String> args, List<String> applications, List<String> falseSharing, String quickWorkload,
                                     Path defaultOut) {
        List<String> known = new ArrayList<>(applications);
        known.addAll(falseSharing);
        BenchArgs a = new BenchArgs();
        CommandLines.parse(a, args);
        Mode mode = a.mode == null ? Mode.QUICK : a.mode;
        boolean full = mode == Mode.FULL;
        // Full counts, budgeted for about 40 minutes on the idle 2-core machine: see docs/measurements.md
        int inv = a.invocations != null ? a.invocations : full ? 4 : 2;
        int it = a.iterations != null ? a.iterations : full ? 12 : 3;
        int wu = warmup(a, full, it);
        if (inv < 2) throw new IllegalArgumentException("--invocations " + inv + ": an interval needs at least 2");
        int maxInv = maxInvocations(a, inv);
        // the sweep's figures are a trend, not the headline: one invocation fewer keeps the full run in budget
        int sweep = Math.max(2, inv - 1);
        int negative = full ? Math.max(FULL_NEGATIVE_INVOCATIONS, inv) : inv;
        return new BenchOptions(mode, a.jmhOnly, a.dryRun, workloads(a.workloads, full, applications, falseSharing, quickWorkload), configs(a.configs, full),
                a.relaxed, inv, sweep, negative, it, wu, threads(a.threads, full), sizes(a.sizes, known), a.heap, a.java, a.controls,
                a.jmhOnly, a.out != null ? a.out : defaultOut, a.json, a.precision, maxInv, jmhSettings(a, full));
    }

    /** The usage text, generated from the options. */
    static String usage() {
        return CommandLines.usage(new BenchArgs());
    }

    private static int warmup(BenchArgs a, boolean full, int iterations) {
        int wu = a.warmup != null ? a.warmup : full ? 8 : 1;
        if (a.warmup == null && a.iterations != null && wu >= iterations) wu = iterations / 2;
        if (wu >= iterations) {
            throw new IllegalArgumentException("--warmup " + wu + " leaves no measured iteration of --iterations " + iterations);
        }
        return wu;
    }

    private static int maxInvocations(BenchArgs a, int invocations) {
        if (a.maxInvocations != null && a.precision == null) {
            throw new IllegalArgumentException("--max-invocations caps the rounds of --precision, which was not given");
        }
        int maxInv = a.maxInvocations != null ? a.maxInvocations : 4 * invocations;
        if (maxInv < invocations) {
            throw new IllegalArgumentException("--max-invocations " + maxInv + " is below --invocations " + invocations);
        }
        return maxInv;
    }

    private static List<String> workloads(String workloads, boolean full, List<String> applications, List<String> falseSharing,
                                          String quickWorkload) {
        if (workloads == null) return full ? List.copyOf(applications) : List.of(quickWorkload);
        if (workloads.equals("all")) return List.copyOf(applications);
        if (workloads.equals("false-sharing") && !falseSharing.isEmpty()) return List.copyOf(falseSharing);
        List<String> known = new ArrayList<>(applications);
        known.addAll(falseSharing);
        return selected("--workloads", "workload", workloads, known);
    }

    /** The configurations asked for, each ratio's baseline added, stock first. */
    private static List<Config> configs(String configs, boolean full) {
        List<Config> cs = new ArrayList<>();
        if (configs == null) {
            cs.addAll(full ? List.of(Config.STOCK, Config.VBD, Config.STOCK_NOTIERED, Config.VBD_RELAXED)
                    : List.of(Config.STOCK, Config.VBD));
        } else {
            for (String c : configs.split(",")) {
                Config config;
                try {
                    config = Config.byId(c);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--configs: " + e.getMessage());
                }
                if (config == Config.VBD_ALL_RELAXED) {
                    throw new IllegalArgumentException("--configs: '" + c + "' is the negative control, which the harness runs itself");
                }
                if (!cs.contains(config)) cs.add(config);
            }
        }
        // every ratio needs its baseline in the same interleaved run
        for (int i = 0; i < cs.size(); i++) {
            Config base = cs.get(i).baselineConfig();
            if (base != null && !cs.contains(base)) cs.add(base);
        }
        cs.remove(Config.STOCK);
        cs.add(0, Config.STOCK);
        if (cs.size() < 2) {
            throw new IllegalArgumentException("--configs: name at least one configuration besides stock, got '" + configs + "'");
        }
        return List.copyOf(cs);
    }

    private static List<Integer> threads(String threads, boolean full) {
        List<Integer> ts = new ArrayList<>();
        if (threads == null) {
            ts.addAll(full ? List.of(1, 2) : List.of(2));
        } else {
            for (String t : threads.split(",")) {
                int n = BenchArgs.positive("--threads", t.trim());
                if (!ts.contains(n)) ts.add(n);
            }
        }
        ts.sort(null);
        return List.copyOf(ts);
    }

    private static Map<String, Integer> sizes(String sizes, List<String> known) {
        Map<String, Integer> sz = new LinkedHashMap<>();
        if (sizes == null) return sz;
        for (String pair : sizes.split(",")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) throw new IllegalArgumentException("--sizes: expected name=N, got '" + pair + "'");
            String id = pair.substring(0, eq).trim();
            if (!known.contains(id)) {
                throw new IllegalArgumentException("--sizes: unknown workload '" + id + "'; known: " + known);
            }
            sz.put(id, BenchArgs.positive("--sizes " + id, pair.substring(eq + 1).trim()));
        }
        return sz;
    }

    /** What {@code --jmh} runs: the forks, benchmarks and tiers. */
    private static Micro.Settings jmhSettings(BenchArgs a, boolean full) {
        if (!a.jmhOnly && (a.benchmarks != null || a.tiers != null)) {
            throw new IllegalArgumentException((a.benchmarks != null ? "--benchmarks" : "--tiers")
                    + " selects among the JMH microbenchmarks: give --jmh too");
        }
        List<String> bs = a.benchmarks == null ? Micro.benchmarks() : selected("--benchmarks", "benchmark", a.benchmarks, Micro.known());
        List<Micro.Tier> tl = List.of(Micro.Tier.values());
        if (a.tiers != null) {
            List<Micro.Tier> set = new ArrayList<>();
            for (String t : a.tiers.split(",")) {
                Micro.Tier tier = Micro.Tier.byLabel(t.trim());
                if (tier == null) throw new IllegalArgumentException("--tiers: unknown tier '" + t.trim() + "'; known: " + Micro.Tier.labels());
                if (!set.contains(tier)) set.add(tier);
            }
            tl = set;
        }
        return (full ? Micro.FULL : Micro.QUICK).only(a.invocations, bs, tl);
    }

    /** The names in the comma-separated {@code value}, each among {@code known}, without repeats. */
    private static List<String> selected(String option, String noun, String value, List<String> known) {
        LinkedHashSet<String> set = new LinkedHashSet<>();
        for (String n : value.split(",")) {
            String id = n.trim();
            if (!known.contains(id)) {
                throw new IllegalArgumentException(option + ": unknown " + noun + " '" + id + "'; known: " + known);
            }
            set.add(id);
        }
        return List.copyOf(set);
    }
}
