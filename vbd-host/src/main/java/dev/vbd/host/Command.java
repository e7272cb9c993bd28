package dev.vbd.host;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * One command run to its end: started with no input (or a file's), its output drained (into memory, a line
 * listener or files), waited for within an optional time limit, and stopped together with every
 * process it started when it runs past that limit.
 */
public final class Command {
    private static final File NO_INPUT = new File("/dev/null");

    private final List<String> argv;
    private Path directory;
    private Path input;
    private final Map<String, String> environment = new LinkedHashMap<>();
    private Path stdout;
    private Path stderr;
    private boolean errorToTerminal;
    private Consumer<String> lines;
    private Duration timeout;
    private Duration grace = Duration.ZERO;

    private Command(List<String> argv) {
        this.argv = List.copyOf(argv);
    }

    public static Command of(List<String> argv) {
        return new Command(argv);
    }

    public static Command of(String... argv) {
        return new Command(List.of(argv));
    }

    public List<String> argv() {
        return argv;
    }

    public Command in(Path directory) {
        this.directory = directory;
        return this;
    }

    /** The file the command reads as its stdin; none (an empty stdin) when null. */
    public Command inputFrom(Path file) {
        this.input = file;
        return this;
    }

    /** Variables added to this process's own environment. */
    public Command environment(Map<String, String> variables) {
        environment.putAll(variables);
        return this;
    }

    /** stdout and stderr together into one file, written by the process itself. */
    public Command outputTo(Path log) {
        return outputTo(log, null);
    }

    /** stdout into {@code out}, stderr into {@code err} (into {@code out} as well when null). */
    public Command outputTo(Path out, Path err) {
        this.stdout = out;
        this.stderr = err;
        return this;
    }

    /** stderr goes where this process's own goes (progress a user should see); stdout stays captured. */
    public Command errorToTerminal() {
        this.errorToTerminal = true;
        return this;
    }

    /** Each line of the output, as it arrives, to {@code listener} instead of into the result. */
    public Command eachLine(Consumer<String> listener) {
        this.lines = listener;
        return this;
    }

    /** The limit past which the command and its descendants are stopped; none when null. */
    public Command timeout(Duration limit) {
        this.timeout = limit;
        return this;
    }

    /**
     * How long a command past its limit is given to end after being asked (SIGTERM) before it is
     * killed; zero (the default) kills at once. Asking lets shutdown hooks write their reports.
     */
    public Command grace(Duration grace) {
        this.grace = grace;
        return this;
    }

    /** How a command ended. {@code output} holds what it printed unless it went to files or a listener. */
    public record Result(int status, boolean timedOut, String output, Duration elapsed) {
        public boolean succeeded() {
            return !timedOut && status == 0;
        }
    }

    private ProcessBuilder builder() {
        ProcessBuilder pb = new ProcessBuilder(argv).redirectInput(input == null ? NO_INPUT : input.toFile());
        if (directory != null) pb.directory(directory.toFile());
        pb.environment().putAll(environment);
        if (stdout != null) {
            pb.redirectOutput(stdout.toFile());
            if (stderr == null) pb.redirectErrorStream(true);
            else pb.redirectError(stderr.toFile());
        } else if (errorToTerminal) {
            pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        } else {
            pb.redirectErrorStream(true);
        }
        return pb;
    }

    public Result run() throws IOException, InterruptedException {
        long start = System.nanoTime();
        Process p = builder().start();
        StringBuilder captured = new StringBuilder();
        Thread drain = stdout == null ? drain(p, captured) : null;
        boolean timedOut = false;
        try {
            if (timeout == null) {
                p.waitFor();
            } else if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                timedOut = true;
                stop(p, grace);
            }
            if (drain != null) drain.join();
        } catch (InterruptedException e) {
            stop(p, Duration.ZERO);
            throw e;
        }
        String output;
        synchronized (captured) {
            output = captured.toString();
        }
        return new Result(timedOut ? -1 : p.exitValue(), timedOut, output, Duration.ofNanos(System.nanoTime() - start));
    }

    private Thread drain(Process p, StringBuilder captured) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    if (lines != null) {
                        lines.accept(line);
                    } else {
                        synchronized (captured) {
                            captured.append(line).append('\n');
                        }
                    }
                }
            } catch (IOException e) {
                // the process ended and closed the pipe: what came before is kept
            }
        }, "output of " + Path.of(argv.get(0)).getFileName());
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * Stops a process and every process it started: asked first (SIGTERM) when {@code grace} is
     * positive, killed once it has not ended within it. Returns when the process and those it started
     * have ended: a descendant asked to stop can outlive its parent by a moment, which a caller that
     * goes on to reuse what it held (a port, a directory) must not see.
     */
    public static void stop(Process p, Duration grace) throws InterruptedException {
        // taken now: once the process has ended, the processes it started are no longer its descendants
        List<ProcessHandle> tree = tree(p);
        if (!grace.isZero()) {
            tree.forEach(ProcessHandle::destroy);
            if (p.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS) && ended(tree, grace)) return;
            tree.addAll(tree(p));
        }
        tree.forEach(ProcessHandle::destroyForcibly);
        p.waitFor();
        ended(tree, KILLED);
    }

    /** How long a killed process may take to be gone: the kernel's, never the program's, time. */
    private static final Duration KILLED = Duration.ofSeconds(10);

    /** Whether every process of {@code tree} ended within {@code limit}. */
    private static boolean ended(List<ProcessHandle> tree, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        for (ProcessHandle h : tree) {
            try {
                h.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                return false;
            } catch (ExecutionException e) {
                throw new IllegalStateException("waiting for process " + h.pid(), e);
            }
        }
        return true;
    }

    private static List<ProcessHandle> tree(Process p) {
        List<ProcessHandle> all = new ArrayList<>(p.descendants().toList());
        all.add(p.toHandle());
        return all;
    }
}
