package dev.vbd.bench;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The arguments of {@code bin/vbd bench} as given, each checked on its own; {@link BenchOptions}
 * resolves them against one another and the mode. The usage text is generated from these options.
 */
@Command(name = "vbd bench", sortOptions = false, synopsisHeading = "usage: ", abbreviateSynopsis = true,
        description = "What SC costs on real applications, against stock Java: interleaved invocations, 95%% intervals, controls.")
final class BenchArgs {
    BenchOptions.Mode mode;
    @Option(names = "--jmh", order = 2, description = "only the JMH microbenchmarks, in the interpreter, C1 and C2: about 4 minutes "
            + "with --quick, about 18 minutes with --full; stock against the first vbd configuration of --configs (vbd, "
            + "vbd-fenced, vbd-speculative or vbd-safe-construction); --invocations N sets the forks per configuration")
    boolean jmhOnly;
    @Option(names = "--benchmarks", order = 3, paramLabel = "a,b", description = "with --jmh: only these microbenchmarks (default: "
            + "all of UnitCosts); final_NN and plain_NN (NN: 00, 01, 02, 04, 08, 16, 32, 64) are Shipilev's controls of safe "
            + "construction (ConstructionControls)")
    String benchmarks;
    @Option(names = "--tiers", order = 4, paramLabel = "a,b",
            description = "with --jmh: only these tiers, among interpreter, C1, C2 (default: all)")
    String tiers;
    @Option(names = "--startup", order = 5, description = "only start-up: short programs, stock against vbd (--startup --help)")
    boolean startup;
    @Option(names = "--dry-run", order = 6, description = "print the plan (invocations per workload and configuration), run nothing")
    boolean dryRun;
    @Option(names = "--workloads", order = 7, paramLabel = "a,b", description = "workloads by name, 'all' (the real applications), "
            + "or 'false-sharing' (the workloads with false sharing planted, each beside its fix by hand: docs/layout.md)")
    String workloads;
    @Option(names = "--configs", order = 8, paramLabel = "a,b", description = "among stock, stock-notiered, vbd, vbd+relaxed, "
            + "vbd-notiered, vbd-fenced, vbd-fenced+relaxed, vbd-speculative, vbd-safe-construction (not SC: --mode "
            + "safe-construction); and, for what each of vbd's proofs that no other thread sees an access buys (--optimise), "
            + "vbd-unoptimised, vbd-fenced-unoptimised, vbd-fenced-constructors, vbd-fenced-local-arrays; vbd+advised (the "
            + "scopes 'bin/vbd advise' chose on each workload's training size, at most 20), vbd+advised-5, -10, -50 (its "
            + "first N), vbd-fenced+advised (advised and run with fenced fields), vbd-fenced+advised-classes, -packages (the "
            + "same, a rule per class or per package); vbd+layout (the layout 'bin/vbd layout' wrote from each workload's "
            + "training size, against vbd)")
    String configs;
    Path relaxed;
    Integer invocations;
    Integer iterations;
    Integer warmup;
    @Option(names = "--threads", order = 13, paramLabel = "N|a,b,c", description = "thread counts; with several, the highest is "
            + "the headline and the others run stock and vbd only, one invocation fewer")
    String threads;
    @Option(names = "--sizes", order = 14, paramLabel = "name=N,...", description = "workload sizes instead of the bundled ones")
    String sizes;
    String heap = "2g";
    Double precision;
    Integer maxInvocations;
    @Option(names = "--java", order = 18, paramLabel = "J", description = "the java launcher of the JDK to measure (default: java)")
    String java = "java";
    @Option(names = "--no-controls", order = 19, negatable = false, description = "skip the negative and positive controls (the "
            + "figures then carry no validation)")
    void noControls(boolean on) {
        controls = false;
    }
    boolean controls = true;
    Path out;
    Path json;
    @Option(names = {"-h", "--help"}, order = 22, usageHelp = true, description = "this text")
    boolean help;

    @Option(names = "--quick", order = 0, description = "a smoke run in about a minute: one small workload, stock and vbd, "
            + "2 invocations x 3 iterations, controls at a tiny size (the default)")
    void quick(boolean on) {
        mode(BenchOptions.Mode.QUICK);
    }

    @Option(names = "--full", order = 1, description = "every workload x stock, vbd, stock-notiered, vbd+relaxed at 2 threads, "
            + "4 invocations x 12 iterations (8 warm-up); stock and vbd at 1 thread, 3 invocations; the controls (the "
            + "negative one: 12 invocations of xalan at 1 thread): about 45 minutes on 2 cores")
    void full(boolean on) {
        mode(BenchOptions.Mode.FULL);
    }

    private void mode(BenchOptions.Mode m) {
        if (mode != null && mode != m) throw new IllegalArgumentException("--quick and --full exclude each other");
        mode = m;
    }

    @Option(names = "--relaxed", order = 9, paramLabel = "FILE",
            description = "the relaxed config of vbd+relaxed (default: the bundled list)")
    void relaxed(String value) {
        relaxed = Path.of(nonEmpty("--relaxed", value)).toAbsolutePath();
        if (!Files.isRegularFile(relaxed)) throw new IllegalArgumentException("--relaxed: file '" + value + "' does not exist");
    }

    @Option(names = "--invocations", order = 10, paramLabel = "N",
            description = "JVM invocations per workload and configuration (at least 2)")
    void invocations(String value) {
        invocations = positive("--invocations", value);
    }

    @Option(names = "--iterations", order = 11, paramLabel = "N", description = "iterations per invocation; --warmup W of them are dropped")
    void iterations(String value) {
        iterations = positive("--iterations", value);
    }

    @Option(names = "--warmup", order = 12, paramLabel = "W", description = "the first W iterations of each invocation, not measured")
    void warmup(String value) {
        int n = integer("--warmup", value);
        if (n < 0) throw new IllegalArgumentException("--warmup needs a non-negative integer, got '" + value + "'");
        warmup = n;
    }

    @Option(names = "--heap", order = 15, paramLabel = "SIZE", description = "-Xms = -Xmx of every workload JVM (default 2g)")
    void heap(String value) {
        if (!nonEmpty("--heap", value).matches("[0-9]+[kKmMgG]?")) {
            throw new IllegalArgumentException("--heap needs a size like 2g or 512m, got '" + value + "'");
        }
        heap = value;
    }

    @Option(names = "--precision", order = 16, paramLabel = "PCT", description = "after the planned invocations, add interleaved "
            + "rounds (every configuration of the workload once more) to each workload whose headline ratio's 95%% interval is "
            + "wider than +-PCT percent, until it is narrow enough or reaches --max-invocations (default 4 times "
            + "--invocations); the report says which workloads did not get there")
    void precision(String value) {
        String v = nonEmpty("--precision", value).strip();
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

    @Option(names = "--max-invocations", order = 17, paramLabel = "N", description = "with --precision: invocations per "
            + "configuration a workload may reach")
    void maxInvocations(String value) {
        maxInvocations = positive("--max-invocations", value);
    }

    @Option(names = "--out", order = 20, paramLabel = "DIR", description = "where the reports go (default: bench-results/<UTC time>/)")
    void out(String value) {
        out = Path.of(nonEmpty("--out", value)).toAbsolutePath();
    }

    @Option(names = "--json", order = 21, paramLabel = "FILE", description = "also write results.json to FILE")
    void json(String value) {
        json = Path.of(nonEmpty("--json", value)).toAbsolutePath();
    }

    static int positive(String option, String value) {
        int n = integer(option, value);
        if (n <= 0) throw new IllegalArgumentException(option + " needs a positive integer, got '" + value + "'");
        return n;
    }

    private static int integer(String option, String value) {
        try {
            return Integer.parseInt(nonEmpty(option, value).trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " needs an integer, got '" + value + "'");
        }
    }

    private static String nonEmpty(String option, String value) {
        if (value.isEmpty()) throw new IllegalArgumentException(option + " needs a non-empty value");
        return value;
    }
}
