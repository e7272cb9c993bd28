package dev.vbd.it.support;

import dev.vbd.host.Command;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One way of starting a program: {@link #stock()} is {@code <java> -cp DIR Main args};
 * {@link #vbd()} is {@code <repo>/bin/vbd run [--agent] [--relaxed FILE] -- <java> -cp DIR Main args}.
 * Output goes to files under {@code vbd-it/target/it-runs/} (kept for a look after a failure)
 * and is read back as UTF-8.
 */
public final class Launch {
    /** Generous: a vbd start on a busy 2-core machine takes seconds, and a test program a few more. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(3);
    /** Preparing a JDK rewrites all its modules: tens of seconds on a quiet machine, minutes on a busy one. */
    private static final Duration PREPARE_TIMEOUT = Duration.ofMinutes(15);

    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final Map<String, Boolean> PREPARED = new ConcurrentHashMap<>();

    private final Program program;
    private final Jvm jvm;
    private final String[] args;
    private byte[] stdin;
    private Duration timeout = DEFAULT_TIMEOUT;
    private Path relaxedConfig;
    private Path layout;
    private boolean agent;
    private String fields;
    private String mode;
    private final List<String> jvmOptions = new ArrayList<>();

    Launch(Program program, Jvm jvm, String[] args) {
        this.program = program;
        this.jvm = jvm;
        this.args = args.clone();
    }

    /** Bytes fed to the program's standard input; without it, standard input is empty. */
    public Launch stdin(byte[] bytes) {
        this.stdin = bytes.clone();
        return this;
    }

    /** After this long the program is killed and the outcome says {@code timedOut}. */
    public Launch timeout(Duration timeout) {
        this.timeout = timeout;
        return this;
    }

    /** A relaxed-scope config file for {@code vbd run --relaxed} (ignored by a stock run). */
    public Launch relaxed(Path config) {
        this.relaxedConfig = config;
        return this;
    }

    /** A layout for {@code vbd run --layout} (ignored by a stock run). */
    public Launch layout(Path file) {
        this.layout = file;
        return this;
    }

    /** {@code vbd run --agent}: vbd's agent rewrites, rather than the prepared image's define paths. */
    public Launch agent() {
        this.agent = true;
        return this;
    }

    /** {@code vbd run --fields MODE}; without it, {@code $VBD_FIELDS} or the default. */
    public Launch fields(String mode) {
        this.fields = mode;
        return this;
    }

    /** {@code vbd run --mode MODE}; without it, sequential consistency. */
    public Launch mode(String mode) {
        this.mode = mode;
        return this;
    }

    /** Extra JVM options, for both stock and vbd runs. */
    public Launch jvmOptions(String... options) {
        jvmOptions.addAll(List.of(options));
        return this;
    }

    public Outcome stock() {
        List<String> cmd = new ArrayList<>();
        cmd.add(jvm.launcher().toString());
        cmd.addAll(javaArgs());
        return execute("stock", cmd, timeout);
    }

    public Outcome vbd() {
        prepare(jvm, relaxedConfig, fields, mode);
        List<String> cmd = new ArrayList<>(vbdPrefix("run"));
        if (agent) cmd.add("--agent");
        if (mode != null) cmd.addAll(List.of("--mode", mode));
        if (fields != null) cmd.addAll(List.of("--fields", fields));
        if (relaxedConfig != null) {
            cmd.add("--relaxed");
            cmd.add(relaxedConfig.toString());
        }
        if (layout != null) {
            cmd.add("--layout");
            cmd.add(layout.toString());
        }
        cmd.add("--");
        cmd.add(jvm.launcher().toString());
        cmd.addAll(javaArgs());
        return execute((agent ? "vbd --agent" : "vbd") + (mode == null ? "" : " --mode " + mode) + (fields == null ? "" : " --fields " + fields)
                + (relaxedConfig == null ? "" : " --relaxed") + (layout == null ? "" : " --layout"), cmd, timeout);
    }

    /**
     * {@code vbd layout -q --out FILE --json REPORT}: the program runs on stock Java with the layout
     * probe, and vbd writes the layout and the report; its report on stdout.
     */
    public Outcome findLayout(Path out, Path report, String... options) {
        List<String> cmd = new ArrayList<>(vbdPrefix("layout"));
        cmd.addAll(List.of("-q", "--out", out.toString(), "--json", report.toString()));
        cmd.addAll(List.of(options));
        cmd.add("--");
        cmd.add(jvm.launcher().toString());
        cmd.addAll(javaArgs());
        return execute("vbd layout", cmd, timeout);
    }

    /**
     * {@code vbd verify --json report}: the program runs under vbd's agent, and the verifier walks
     * every class it loaded at exit; exit status 1 when some access is not SC, else the program's.
     */
    public Outcome verify(Path report) {
        prepare(jvm, relaxedConfig, fields, mode);
        List<String> cmd = new ArrayList<>(vbdPrefix("verify"));
        cmd.addAll(List.of("-q", "--json", report.toString()));
        if (relaxedConfig != null) {
            cmd.add("--relaxed");
            cmd.add(relaxedConfig.toString());
        }
        cmd.add("--");
        cmd.add(jvm.launcher().toString());
        cmd.addAll(javaArgs());
        return execute("vbd verify", cmd, timeout);
    }

    private List<String> javaArgs() {
        List<String> a = new ArrayList<>(jvmOptions);
        a.add("-cp");
        a.add(program.classPath());
        a.add("Main");
        a.addAll(List.of(args));
        return a;
    }

    /** Decoded leniently: a program that writes bytes that are not UTF-8 must fail an assertion, not the harness. */
    private static String text(Path file) throws IOException {
        return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    }

    private static List<String> vbdPrefix(String verb) {
        return List.of(Programs.home().resolve("bin").resolve("vbd").toString(), verb);
    }

    /**
     * Prepares the JDK for vbd once per test run before the first program runs on it, so that
     * the one-time preparation (and a rebuild of vbd, when its sources changed) neither counts
     * against a program's timeout nor shows up in the program's stderr. A relaxed config is part
     * of the preparation (it may relax JDK classes), and so is the way of making fields SC (fenced
     * and speculative fields take a JDK prepared with fenced fields), so each is prepared on its own.
     */
    private static void prepare(Jvm jvm, Path relaxedConfig, String fields, String mode) {
        // keyed by the jar's time stamp too: when vbd is rebuilt during a test run, its new build
        // prepares the JDK afresh, and that must happen here, not inside a program's run
        String key = jvm.feature() + "@" + jarStamp() + (relaxedConfig == null ? "" : "@" + relaxedConfig)
                + (fields == null ? "" : "@" + fields) + (mode == null ? "" : "@" + mode);
        PREPARED.computeIfAbsent(key, k -> {
            List<String> cmd = new ArrayList<>(vbdPrefix("prepare"));
            if (mode != null) cmd.addAll(List.of("--mode", mode));
            if (fields != null) cmd.addAll(List.of("--fields", fields));
            if (relaxedConfig != null) {
                cmd.add("--relaxed");
                cmd.add(relaxedConfig.toString());
            }
            cmd.add("--");
            cmd.add(jvm.launcher().toString());
            Outcome o = execute("vbd prepare", cmd, jvm, null, "prepare", PREPARE_TIMEOUT);
            if (o.timedOut() || o.exitStatus() != 0) {
                throw new AssertionError("'vbd prepare' failed for " + jvm + ":\n" + o.describe());
            }
            return true;
        });
    }

    private static long jarStamp() {
        Path jar = Programs.home().resolve("vbd-cli").resolve("target").resolve("vbd.jar");
        try {
            return Files.exists(jar) ? Files.getLastModifiedTime(jar).toMillis() : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    private Outcome execute(String mode, List<String> cmd, Duration limit) {
        return execute(mode, cmd, jvm, stdin, program.name(), limit);
    }

    private static Outcome execute(String mode, List<String> cmd, Jvm jvm, byte[] stdin, String name, Duration limit) {
        Path dir = Programs.target().resolve("it-runs");
        String base = String.format("%04d-%s-jdk%d-%s", SEQUENCE.incrementAndGet(), name, jvm.feature(),
                mode.replaceAll("[^A-Za-z0-9]+", "_"));
        Path out = dir.resolve(base + ".out");
        Path err = dir.resolve(base + ".err");
        try {
            Files.createDirectories(dir);
            Path in = null;
            if (stdin != null) {
                in = dir.resolve(base + ".in");
                Files.write(in, stdin);
            }
            Command.Result r = Command.of(cmd).inputFrom(in).outputTo(out, err).timeout(limit).run();
            return new Outcome(mode, jvm, List.copyOf(cmd), r.status(), text(out), text(err),
                    r.timedOut(), r.elapsed().toMillis(), dir.resolve(base) + ".{out,err}");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + cmd, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + cmd, e);
        }
    }
}
