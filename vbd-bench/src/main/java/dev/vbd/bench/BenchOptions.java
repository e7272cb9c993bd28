package dev.vbd.bench;

import java.nio.file.Files;
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

    static final String USAGE = """
            usage: vbd bench [--quick|--full] [--jmh] [--dry-run] [--workloads a,b] [--configs stock,vbd,...]
                             [--relaxed FILE] [--invocations N] [--iterations N] [--warmup W]
                             [--threads N|a,b,c] [--sizes name=N,...] [--heap SIZE] [--java J]
                             [--precision PCT [--max-invocations N]] [--no-controls] [--out DIR] [--json FILE]
                             [--benchmarks a,b] [--tiers a,b]

              --quick            a smoke run in about a minute: one small workload, stock and vbd,
                                 2 invocations x 3 iterations, controls at a tiny size (the default)
              --full             every workload x stock, vbd, stock-notiered, vbd+relaxed at 2
                                 threads, 4 invocations x 12 iterations (8 warm-up); stock and vbd
                                 at 1 thread, 3 invocations; the controls (the negative one: 12
                                 invocations of xalan at 1 thread): about 45 minutes on 2 cores
              --jmh              only the JMH microbenchmarks, in the interpreter, C1 and C2: about
                                 4 minutes with --quick, about 18 minutes with --full; stock against
                                 the first vbd configuration of --configs (vbd, vbd-fenced,
                                 vbd-speculative or vbd-safe-construction); --invocations N sets the forks per configuration
              --benchmarks a,b   with --jmh: only these microbenchmarks (default: all of UnitCosts);
                                 final_NN and plain_NN (NN: 00, 01, 02, 04, 08, 16, 32, 64) are
                                 Shipilev's controls of safe construction (ConstructionControls)
              --tiers a,b        with --jmh: only these tiers, among interpreter, C1, C2 (default: all)
              --startup          only start-up: short programs, stock against vbd (--startup --help)
              --dry-run          print the plan (invocations per workload and configuration), run nothing
              --workloads a,b    workloads by name, or 'all'
              --configs a,b      among stock, stock-notiered, vbd, vbd+relaxed, vbd-notiered, vbd-fenced,
                                 vbd-fenced+relaxed, vbd-speculative, vbd-safe-construction (not SC:
                                 --mode safe-construction); and, for what each of vbd's proofs
                                 that no other thread sees an access buys (--optimise), vbd-unoptimised,
                                 vbd-fenced-unoptimised, vbd-fenced-constructors, vbd-fenced-local-arrays;
                                 vbd+advised (the scopes 'bin/vbd advise' chose on each workload's
                                 training size, at most 20), vbd+advised-5, -10, -50 (its first N),
                                 vbd-fenced+advised (advised and run with fenced fields),
                                 vbd-fenced+advised-classes, -packages (the same, a rule per class
                                 or per package)
              --relaxed FILE     the relaxed config of vbd+relaxed (default: the bundled list)
              --invocations N    JVM invocations per workload and configuration (at least 2)
              --iterations N     iterations per invocation; --warmup W of them are dropped
              --threads N|a,b,c  thread counts; with several, the highest is the headline and
                                 the others run stock and vbd only, one invocation fewer
              --sizes name=N     workload sizes instead of the bundled ones
              --heap SIZE        -Xms = -Xmx of every workload JVM (default 2g)
              --precision PCT    after the planned invocations, add interleaved rounds (every
                                 configuration of the workload once more) to each workload whose
                                 headline ratio's 95% interval is wider than +-PCT percent, until
                                 it is narrow enough or reaches --max-invocations (default 4 times
                                 --invocations); the report says which workloads did not get there
              --java J           the java launcher of the JDK to measure (default: java)
              --no-controls      skip the negative and positive controls (the figures then
                                 carry no validation)
              --out DIR          where the reports go (default: bench-results/<UTC time>/)
              --json FILE        also write results.json to FILE
            """;

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
     */
    public static BenchOptions parse(List<String> args, List<String> known, String quickWorkload, Path defaultOut) {
        Mode mode = null;
        boolean jmhOnly = false;
        boolean dryRun = false;
        String workloads = null;
        String configs = null;
        Path relaxed = null;
        Integer invocations = null;
        Integer iterations = null;
        Integer warmup = null;
        String threads = null;
        String sizes = null;
        String heap = "2g";
        String java = "java";
        boolean controls = true;
        Path out = null;
        Path json = null;
        Double precision = null;
        Integer maxInvocations = null;
        String benchmarks = null;
        String tiers = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String name = a;
            String value = null;
            if (a.startsWith("--") && a.contains("=")) {
                name = a.substring(0, a.indexOf('='));
                value = a.substring(a.indexOf('=') + 1);
            }
            switch (name) {
                case "--quick", "--full" -> {
                    noValue(name, value);
                    Mode m = name.equals("--quick") ? Mode.QUICK : Mode.FULL;
                    if (mode != null && mode != m) throw new IllegalArgumentException("--quick and --full exclude each other");
                    mode = m;
                    continue;
                }
                case "--jmh" -> {
                    noValue(name, value);
                    jmhOnly = true;
                    continue;
                }
                case "--dry-run" -> {
                    noValue(name, value);
                    dryRun = true;
                    continue;
                }
                case "--no-controls" -> {
                    noValue(name, value);
                    controls = false;
                    continue;
                }
                case "-h", "--help" -> throw new HelpRequested();
                default -> { }
            }
            if (value == null) {
                if (!isValued(name)) {
                    throw new IllegalArgumentException("unknown option '" + a + "'");
                }
                if (i + 1 >= args.size()) throw new IllegalArgumentException(name + " needs a value");
                value = args.get(++i);
            }
            if (value.isEmpty()) throw new IllegalArgumentException(name + " needs a non-empty value");
            switch (name) {
                case "--workloads" -> workloads = value;
                case "--configs" -> configs = value;
                case "--relaxed" -> {
                    relaxed = Path.of(value).toAbsolutePath();
                    if (!Files.isRegularFile(relaxed)) {
                        throw new IllegalArgumentException("--relaxed: file '" + value + "' does not exist");
                    }
                }
                case "--invocations" -> invocations = positive(name, value);
                case "--iterations" -> iterations = positive(name, value);
                case "--warmup" -> warmup = nonNegative(name, value);
                case "--threads" -> threads = value;
                case "--sizes" -> sizes = value;
                case "--heap" -> {
                    if (!value.matches("[0-9]+[kKmMgG]?")) {
                        throw new IllegalArgumentException("--heap needs a size like 2g or 512m, got '" + value + "'");
                    }
                    heap = value;
                }
                case "--java" -> java = value;
                case "--out" -> out = Path.of(value).toAbsolutePath();
                case "--json" -> json = Path.of(value).toAbsolutePath();
                case "--precision" -> {
                    String v = value.strip();
                    if (v.endsWith("%")) v = v.substring(0, v.length() - 1);
                    double pct;
                    try {
                        pct = Double.parseDouble(v);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--precision needs a percentage such as 5, got '" + value + "'");
                    }
                    if (!(pct > 0 && pct < 100)) {
                        throw new IllegalArgumentException("--precision needs a percentage above 0 and below 100, got '" + value + "'");
                    }
                    precision = pct / 100;
                }
                case "--max-invocations" -> maxInvocations = positive(name, value);
                case "--benchmarks" -> benchmarks = value;
                case "--tiers" -> tiers = value;
                default -> throw new IllegalArgumentException("unknown option '" + a + "'");
            }
        }
        if (mode == null) mode = Mode.QUICK;
        boolean full = mode == Mode.FULL;

        List<String> ws;
        if (workloads == null) {
            ws = full ? List.copyOf(known) : List.of(quickWorkload);
        } else if (workloads.equals("all")) {
            ws = List.copyOf(known);
        } else {
            ws = selected("--workloads", "workload", workloads, known);
        }

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

        // Full counts, budgeted for about 40 minutes on the idle 2-core machine: see docs/measurements.md
        int inv = invocations != null ? invocations : full ? 4 : 2;
        int it = iterations != null ? iterations : full ? 12 : 3;
        int wu = warmup != null ? warmup : full ? 8 : 1;
        if (inv < 2) throw new IllegalArgumentException("--invocations " + inv + ": an interval needs at least 2");
        if (maxInvocations != null && precision == null) {
            throw new IllegalArgumentException("--max-invocations caps the rounds of --precision, which was not given");
        }
        int maxInv = maxInvocations != null ? maxInvocations : 4 * inv;
        if (maxInv < inv) {
            throw new IllegalArgumentException("--max-invocations " + maxInv + " is below --invocations " + inv);
        }
        if (warmup == null && iterations != null && wu >= it) wu = it / 2;
        if (wu >= it) {
            throw new IllegalArgumentException("--warmup " + wu + " leaves no measured iteration of --iterations " + it);
        }

        List<Integer> ts = new ArrayList<>();
        if (threads == null) {
            ts.addAll(full ? List.of(1, 2) : List.of(2));
        } else {
            for (String t : threads.split(",")) {
                int n = positive("--threads", t.trim());
                if (!ts.contains(n)) ts.add(n);
            }
        }
        ts.sort(null);

        Map<String, Integer> sz = new LinkedHashMap<>();
        if (sizes != null) {
            for (String pair : sizes.split(",")) {
                int eq = pair.indexOf('=');
                if (eq <= 0) throw new IllegalArgumentException("--sizes: expected name=N, got '" + pair + "'");
                String id = pair.substring(0, eq).trim();
                if (!known.contains(id)) {
                    throw new IllegalArgumentException("--sizes: unknown workload '" + id + "'; known: " + known);
                }
                sz.put(id, positive("--sizes " + id, pair.substring(eq + 1).trim()));
            }
        }

        if (!jmhOnly && (benchmarks != null || tiers != null)) {
            throw new IllegalArgumentException((benchmarks != null ? "--benchmarks" : "--tiers")
                    + " selects among the JMH microbenchmarks: give --jmh too");
        }
        List<String> bs = benchmarks == null ? Micro.benchmarks() : selected("--benchmarks", "benchmark", benchmarks, Micro.known());
        List<Micro.Tier> tl = List.of(Micro.Tier.values());
        if (tiers != null) {
            List<Micro.Tier> set = new ArrayList<>();
            for (String t : tiers.split(",")) {
                Micro.Tier tier = Micro.Tier.byLabel(t.trim());
                if (tier == null) throw new IllegalArgumentException("--tiers: unknown tier '" + t.trim() + "'; known: " + Micro.Tier.labels());
                if (!set.contains(tier)) set.add(tier);
            }
            tl = set;
        }
        Micro.Settings jmhSettings = (full ? Micro.FULL : Micro.QUICK).only(invocations, bs, tl);

        // the sweep's figures are a trend, not the headline: one invocation fewer keeps the full run in budget
        int sweep = Math.max(2, inv - 1);
        int negative = full ? Math.max(FULL_NEGATIVE_INVOCATIONS, inv) : inv;
        return new BenchOptions(mode, jmhOnly, dryRun, ws, List.copyOf(cs), relaxed, inv, sweep, negative, it, wu, List.copyOf(ts),
                sz, heap, java, controls, jmhOnly, out != null ? out : defaultOut, json, precision, maxInv, jmhSettings);
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

    private static boolean isValued(String name) {
        return List.of("--workloads", "--configs", "--relaxed", "--invocations", "--iterations", "--warmup",
                "--threads", "--sizes", "--heap", "--java", "--out", "--json", "--precision", "--max-invocations",
                "--benchmarks", "--tiers").contains(name);
    }

    private static void noValue(String name, String value) {
        if (value != null) throw new IllegalArgumentException(name + " takes no value, got '" + value + "'");
    }

    private static int positive(String option, String value) {
        int n = integer(option, value);
        if (n <= 0) throw new IllegalArgumentException(option + " needs a positive integer, got '" + value + "'");
        return n;
    }

    private static int nonNegative(String option, String value) {
        int n = integer(option, value);
        if (n < 0) throw new IllegalArgumentException(option + " needs a non-negative integer, got '" + value + "'");
        return n;
    }

    private static int integer(String option, String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " needs an integer, got '" + value + "'");
        }
    }

    /** {@code -h} or {@code --help}: print the usage and stop. */
    public static final class HelpRequested extends RuntimeException {
        HelpRequested() {
            super(null, null, false, false);
        }
    }
}
