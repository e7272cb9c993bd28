package dev.vbd.bench;

import dev.vbd.apps.Workload;
import dev.vbd.host.Command;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The advised configurations' side of a run: {@code bin/vbd advise} on each workload at its
 * training size, then, for each advised configuration, the advisor's config cut to its first rules
 * (the advisor writes the costliest first).
 */
final class Advising {
    /** Longer than any workload's four runs at its training size, observed run included. */
    static final long TIMEOUT_S = 3600;

    /**
     * Profiled runs per side, their samples summed: one training run's thousand or so samples put a
     * method costing 1% of the run at the edge of sampling noise, and one slow spell of the machine
     * can tip the balance between the two sides.
     */
    static final int PROFILES = 3;

    /** What the advisor did for one workload; {@code config} is relative to the report's folder. */
    record Advice(String workload, String fields, String scope, int trainingSize, int rules, double seconds, int exitStatus, Path config, Path log) {}

    /**
     * The advice files' name for a workload advised under a field mode with a scope per rule: the
     * workload's, with a field mode other than volatile beside it, then {@code classes} or {@code packages}
     * for a rule per class or package.
     */
    static String name(String workload, String fields, String scope) {
        return workload + (fields.equals("volatile") ? "" : "-" + fields)
                + (scope.equals("class") ? "-classes" : scope.equals("package") ? "-packages" : "");
    }

    /** The advice files' name for a workload advised for a configuration. */
    static String name(String workload, Config c) {
        return name(workload, c.fields, c.adviceScope);
    }

    private Advising() {}

    static Advice advise(Path repo, String java, List<String> sharedFlags, WorkloadSpec training, String fields, String scope, int threads,
                         int iterations, int warmup, int budget, int prepared, Path outDir) throws IOException, InterruptedException {
        Files.createDirectories(outDir);
        Path config = outDir.resolve(name(training.id(), fields, scope) + ".relaxed");
        Path log = outDir.resolve(name(training.id(), fields, scope) + ".log");
        List<String> cmd = new ArrayList<>(List.of(repo.resolve("bin/vbd").toString(), "advise", "--budget",
                String.valueOf(budget), "--profiles", String.valueOf(PROFILES), "--profile-from", warmedUp(warmup),
                "--fields", fields, "--scope", scope, "--out", config.toString(), "--", java));
        cmd.addAll(sharedFlags);
        cmd.addAll(training.javaArgs(threads, iterations));
        Map<String, String> env = new HashMap<>(System.getenv());
        env.putAll(training.environment());
        // its check run prepares a JDK for the advice, which must not evict one the bench still runs
        VbdOptions.keepAtLeast(env, prepared);
        Command.Result run = Command.of(cmd).environment(env).outputTo(log).timeout(Duration.ofSeconds(TIMEOUT_S)).run();
        int rc = run.timedOut() ? 124 : run.status();
        double seconds = run.elapsed().toNanos() / 1e9;
        if (!Files.isRegularFile(config)) Files.writeString(config, "# vbd advise wrote no config: see " + log.getFileName() + "\n");
        return new Advice(training.id(), fields, scope, training.size() == null ? 0 : training.size(), Bench.countRules(config), seconds, rc,
                config, log);
    }

    /** The timing line of a workload's last warm-up iteration (they count from 0). */
    static String warmedUp(int warmup) {
        return "^" + Pattern.quote(Workload.TIMING_PREFIX) + "\\S+ iteration " + (warmup - 1) + " time_ms ";
    }

    /**
     * The advisor's config cut to its first {@code n} rules: its header, then each rule with the
     * comments above it, up to the n-th.
     */
    static Path firstRules(Path config, int n, Path out) throws IOException {
        List<String> kept = new ArrayList<>();
        List<String> pending = new ArrayList<>();
        int rules = 0;
        for (String line : Files.readAllLines(config, StandardCharsets.UTF_8)) {
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("#")) {
                pending.add(line);
                continue;
            }
            if (rules == n) break;
            kept.addAll(pending);
            pending.clear();
            kept.add(line);
            rules++;
        }
        if (rules == 0) kept.addAll(pending.stream().takeWhile(l -> !l.isBlank()).toList());
        Files.write(out, kept, StandardCharsets.UTF_8);
        return out;
    }
}
