package dev.vbd.bench;

import dev.vbd.apps.Workload;
import dev.vbd.host.Command;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Launches one workload JVM and reads its iteration times from the timing lines on its stderr
 * ({@link Workload#TIMING_PREFIX}). Anything but a clean exit with exactly the expected timing
 * lines fails the invocation, with the command and the tail of the workload's stderr.
 */
final class Runner {
    private static final Pattern TIMING = Pattern.compile(
            "^" + Pattern.quote(Workload.TIMING_PREFIX)
                    + "(\\S+) iteration (\\d+) time_ms ([0-9]+(?:\\.[0-9]+)?)(?: cpu_ms ([0-9]+(?:\\.[0-9]+)?))?$");
    private static final int TAIL_LINES = 40;

    /** Ran, exited 0, printed its check's OK and all timing lines. */
    record Outcome(Measurement measurement, String stdout) {}

    static final class InvocationFailed extends Exception {
        InvocationFailed(String message) {
            super(message);
        }
    }

    private final Path workDir;
    private final Path logDir;
    private final long timeoutSeconds;

    Runner(Path workDir, Path logDir, long timeoutSeconds) {
        this.workDir = workDir;
        this.logDir = logDir;
        this.timeoutSeconds = timeoutSeconds;
    }

    Outcome run(Invocation inv, List<String> command, Map<String, String> env, int iterations, int warmup)
            throws IOException, InterruptedException, InvocationFailed {
        Files.createDirectories(workDir);
        Path out = Files.createTempFile(workDir, "stdout", ".txt");
        Path err = Files.createTempFile(workDir, "stderr", ".txt");
        try {
            Command.Result run = Command.of(command).in(workDir).environment(env).outputTo(out, err)
                    .timeout(Duration.ofSeconds(timeoutSeconds)).run();
            double wall = run.elapsed().toNanos() / 1e9;
            String stdout = Files.readString(out, StandardCharsets.UTF_8);
            String stderr = Files.readString(err, StandardCharsets.UTF_8);
            String problem = run.timedOut() ? "no exit within " + timeoutSeconds + " s"
                    : run.status() != 0 ? "exit status " + run.status() : null;
            double[] times = null;
            double[] cpu = null;
            if (problem == null) {
                try {
                    times = parseTimes(stderr, iterations);
                    cpu = parseCpu(stderr, iterations);
                } catch (IllegalStateException e) {
                    problem = e.getMessage();
                }
            }
            if (problem == null && !stdout.contains(": OK")) problem = "no ': OK' line on stdout";
            if (problem != null) {
                throw new InvocationFailed(failure(inv, command, problem, stdout, stderr));
            }
            return new Outcome(new Measurement(inv.workload().id(), inv.config().id, inv.threads(), inv.index(),
                    inv.workload().size(), times, warmup, wall, cpu), stdout);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** Iteration times in ms, in order; throws unless there are exactly {@code iterations} of them. */
    static double[] parseTimes(String stderr, int iterations) {
        List<Double> times = new ArrayList<>();
        for (String line : stderr.lines().toList()) {
            Matcher m = TIMING.matcher(line.strip());
            if (!m.matches()) continue;
            int index = Integer.parseInt(m.group(2));
            if (index != times.size()) {
                throw new IllegalStateException("timing line for iteration " + index + " where iteration "
                        + times.size() + " was expected: '" + line + "'");
            }
            times.add(Double.parseDouble(m.group(3)));
        }
        if (times.size() != iterations) {
            throw new IllegalStateException(times.size() + " timing lines ('" + Workload.TIMING_PREFIX
                    + "NAME iteration I time_ms T') where " + iterations + " were expected");
        }
        return times.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** Each iteration's CPU time in ms (all the JVM's threads), in order; null unless every timing line has one. */
    static double[] parseCpu(String stderr, int iterations) {
        List<Double> cpu = new ArrayList<>();
        for (String line : stderr.lines().toList()) {
            Matcher m = TIMING.matcher(line.strip());
            if (!m.matches()) continue;
            if (m.group(4) == null) return null;
            cpu.add(Double.parseDouble(m.group(4)));
        }
        return cpu.size() == iterations ? cpu.stream().mapToDouble(Double::doubleValue).toArray() : null;
    }

    /** The command with long classpaths shortened: the log file has it in full. */
    static String brief(List<String> command) {
        List<String> out = new ArrayList<>();
        for (String w : command) {
            if (w.length() > 160 && w.contains(File.pathSeparator)) {
                out.add("<" + w.split(File.pathSeparator).length + " classpath entries>");
            } else if (w.startsWith("--patch-module=")) {
                if (!out.contains("--patch-module=...")) out.add("--patch-module=...");
            } else {
                out.add(w);
            }
        }
        return String.join(" ", out);
    }

    private String failure(Invocation inv, List<String> command, String problem, String stdout, String stderr)
            throws IOException {
        Files.createDirectories(logDir);
        String base = (inv.workload().id() + "-" + inv.config().id + "-t" + inv.threads() + "-" + inv.index())
                .replaceAll("[^A-Za-z0-9._-]", "_");
        Path log = logDir.resolve(base + ".log");
        Files.writeString(log, "command: " + String.join(" ", command) + "\n\n--- stdout ---\n" + stdout
                + "\n--- stderr ---\n" + stderr, StandardCharsets.UTF_8);
        List<String> lines = stderr.lines().toList();
        List<String> tail = lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size());
        return inv.label() + " invocation " + (inv.index() + 1) + " failed: " + problem + "\n"
                + "  command: " + brief(command) + "\n"
                + "  full output: " + log + "\n"
                + "  --- last " + tail.size() + " lines of its stderr ---\n    "
                + String.join("\n    ", tail);
    }
}
