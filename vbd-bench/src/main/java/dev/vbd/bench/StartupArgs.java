package dev.vbd.bench;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command line of {@code bin/vbd bench --startup}; the usage text is generated from these options. */
@Command(name = "vbd bench --startup", sortOptions = false, synopsisHeading = "usage: ",
        description = "How long short programs take from the command to their exit, stock against vbd, interleaved.")
final class StartupArgs {
    int rounds = 10;
    List<String> programs = Startup.PROGRAMS;
    List<String> configs = Startup.CONFIGS;
    @Option(names = "--java", paramLabel = "J", order = 3, description = "the java launcher of the JDK to measure (default: java)")
    String java = "java";
    Path out;
    @Option(names = {"-h", "--help"}, usageHelp = true, order = 5, description = "this text")
    boolean help;

    @Option(names = "--invocations", paramLabel = "N", order = 0,
            description = "rounds; each runs every program under every configuration once (default 10)")
    void invocations(String v) {
        try {
            rounds = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            rounds = 0;
        }
        if (rounds < 2) throw new IllegalArgumentException("--invocations '" + v + "': a whole number of at least 2");
    }

    @Option(names = "--programs", paramLabel = "a,b", order = 1, description = "among hello (prints one line), javac (compiles one "
            + "small file), junit (300 small JUnit 5 tests through the JUnit Platform launcher), first-NAME (the first iteration "
            + "of bench workload NAME, at the quick size), workloads (every first-NAME)")
    void programs(String v) {
        List<String> known = Startup.knownPrograms();
        programs = pick(v.replace(Startup.WORKLOADS, String.join(",", known.subList(Startup.PROGRAMS.size(), known.size()))), known, "program");
    }

    @Option(names = "--configs", paramLabel = "a,b", order = 2, description = "among stock, vbd, vbd-first, vbd-agent, vbd-patched, "
            + "vbd-fenced, vbd-speculative (default: all these; stock is always run), and vbd-safe-construction")
    void configs(String v) {
        List<String> picked = pick(v, Startup.KNOWN, "configuration");
        configs = new ArrayList<>();
        if (!picked.contains("stock")) configs.add("stock");
        configs.addAll(picked);
    }

    @Option(names = "--out", paramLabel = "DIR", order = 4,
            description = "where startup.md and startup.json go (default: bench-results/<UTC time>-startup/)")
    void out(String v) {
        out = Path.of(v).toAbsolutePath();
    }

    private static List<String> pick(String v, List<String> known, String what) {
        List<String> out = new ArrayList<>();
        for (String x : v.split(",")) {
            String t = x.trim();
            if (!known.contains(t)) throw new IllegalArgumentException("unknown " + what + " '" + t + "'; known: " + known);
            out.add(t);
        }
        return out;
    }
}
