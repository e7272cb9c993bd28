package dev.vbd.litmus.run;

import dev.vbd.host.Command;
import dev.vbd.host.Jdks;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs jcstress as its own host JVM, once per configuration and pass. jcstress forks each test JVM
 * with the host's {@code java.home} and class path and mixes the host's own JVM options into every
 * fork, so the host is a plain launcher of the JDK under test (for vbd, the prepared image's own,
 * without vbd's agent); vbd reaches only the forks, through {@code -jvmArgsPrepend}.
 */
final class Jcstress {
    /** One neutral option: jcstress probes its own matrix of JVM modes when none is given. */
    private static final String FORK_JVM_ARGS = "-XX:+UseG1GC";
    private static final Pattern HEADLINE = Pattern.compile("^\\.*\\s*\\[(\\w[\\w ]*)\\]\\s+(\\S+)");

    private final String java;
    private final Path out;
    private final Preset preset;
    private final String classpath;
    private final boolean defaultLocking;
    private String javaVersion;

    /** {@code defaultLocking}: each test once, in the JVM's default locking (see {@link JcstressHost}). */
    Jcstress(String java, Path out, Preset preset, boolean defaultLocking) {
        this.java = java;
        this.out = out;
        this.preset = preset;
        this.defaultLocking = defaultLocking;
        this.classpath = System.getProperty("java.class.path");
    }

    String javaVersion() throws IOException, InterruptedException {
        if (javaVersion == null) {
            Map<String, String> p = Jdks.properties(java);
            String version = p.getOrDefault("java.runtime.version", "");
            String vendor = p.getOrDefault("java.vm.vendor", "");
            if (version.isEmpty()) throw new IOException("'" + java + "' does not run as a java launcher");
            javaVersion = version + (vendor.isEmpty() ? "" : " (" + vendor + ")");
        }
        return javaVersion;
    }

    /**
     * Runs the tests in one jcstress host. {@code oversubscribe}, when positive, is the CPU count that
     * host is told the machine has (see {@link JcstressHost}); 0 leaves it the real count.
     */
    void run(String config, int pass, VbdArgs.Forks forks, List<Litmus.Suite.Test> tests, Map<String, Tally> tallies,
             int oversubscribe) throws IOException, InterruptedException {
        Path dir = out.resolve(config).resolve("pass-" + pass + (oversubscribe > 0 ? "-oversubscribed" : ""));
        Files.createDirectories(dir);
        // jcstress gives its forks the host's own JVM options too: the host runs as they do
        List<String> cmd = new ArrayList<>(List.of(forks.host(), "-cp", classpath));
        cmd.addAll(JcstressHost.command(oversubscribe, defaultLocking));
        cmd.addAll(preset.jcstressArgs);
        cmd.addAll(List.of("-sc", "false", "-jvmArgs", FORK_JVM_ARGS, "-r", dir.resolve("report").toString()));
        // one -jvmArgsPrepend per option: a single one would be split at spaces, and paths may have them
        for (String a : forks.prepend()) {
            cmd.add("-jvmArgsPrepend");
            cmd.add(a);
        }
        cmd.add("-t");
        cmd.add(tests.stream().map(t -> Pattern.quote(t.name())).collect(Collectors.joining("|", "^(?:", ")$")));

        Path log = dir.resolve("jcstress.log");
        int status;
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(log))) {
            Progress progress = new Progress(config, w);
            status = Command.of(cmd).in(dir).eachLine(progress::line).run().status();
        }
        Path blob = blobIn(dir);
        // jcstress exits non-zero when a test fails; that is a result, not a broken run
        if (blob == null) {
            throw new IOException("jcstress (" + config + ", exit status " + status + ") wrote no results; see " + log
                    + System.lineSeparator() + tail(log));
        }
        ResultFile.addTo(blob, tallies);
    }

    private static Path blobIn(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().matches("jcstress-results-.*\\.bin\\.gz"))
                    .findFirst().orElse(null);
        }
    }

    /** The tallies of every pass an earlier run of this configuration left under {@code out}. */
    static Map<String, Tally> readEarlier(Path out, String config) throws IOException {
        Map<String, Tally> tallies = new java.util.TreeMap<>();
        Path dir = out.resolve(config);
        if (!Files.isDirectory(dir)) return tallies;
        try (Stream<Path> passes = Files.list(dir)) {
            for (Path pass : passes.filter(Files::isDirectory).sorted().toList()) {
                Path blob = blobIn(pass);
                if (blob != null) ResultFile.addTo(blob, tallies);
            }
        }
        return tallies;
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join(System.lineSeparator(), lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }

    /** Copies jcstress's output into its log and shows each test's headline and, now and then, the progress. */
    private static final class Progress {
        private final String config;
        private final PrintWriter log;
        private boolean summary;
        private long lastStatus;
        private String eta;

        Progress(String config, PrintWriter log) {
            this.config = config;
            this.log = log;
        }

        void line(String line) {
            log.println(line);
            // after the last fork jcstress repeats every failure in its summary: progress is over
            summary |= line.startsWith("RUN RESULTS");
            if (summary) return;
            Matcher m = HEADLINE.matcher(line);
            if (m.find()) {
                System.err.printf("vbd litmus: %s: %-6s %s%n", config, m.group(1), Litmus.Suite.shortName(m.group(2)));
            } else if (line.startsWith("(ETA:")) {
                eta = line;
            } else if (line.startsWith("(Results:") && eta != null) {
                if (System.nanoTime() - lastStatus > 30e9) {
                    System.err.printf("vbd litmus: %s: %s %s%n", config, eta, line);
                    lastStatus = System.nanoTime();
                }
                eta = null;
            }
        }
    }
}
