package dev.vbd.cli;

import dev.vbd.host.Command;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;

/** The user's program, run to its end by a command of vbd's. */
final class Program {
    private Program() {}

    /** Starts it and waits for it; its exit status. A command that cannot start is the user's error. */
    static int run(ProcessBuilder pb) throws UsageException, IOException {
        try {
            return pb.start().waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the program");
        } catch (IOException e) {
            throw new UsageException("cannot start '" + pb.command().get(0) + "': " + e.getMessage());
        }
    }

    /** How a run ended, and when it first printed a line that matched (null if it never did). */
    record Marked(int status, Instant marked) {}

    /**
     * Runs it with its stdout and stderr copied byte for byte to {@code out} and {@code err}, noting
     * when either first carries a line matching {@code marker} (none looked for when it is null). The time is taken as the line arrives,
     * a pipe's latency after the program wrote it.
     */
    static Marked run(ProcessBuilder pb, Path out, Path err, Pattern marker) throws UsageException, IOException {
        Ended e = run(pb, out, err, marker, null);
        return new Marked(e.status(), e.marked());
    }

    /** How a run ended: its exit status (-1 when it was killed past its time), and when it first printed a matching line. */
    record Ended(int status, Instant marked, boolean timedOut) {}

    /**
     * {@link #run(ProcessBuilder, Path, Path, Pattern)} with a limit: past {@code timeout} (none
     * when null) the program, and every process it started, is stopped (SIGTERM, then SIGKILL
     * five seconds later).
     */
    static Ended run(ProcessBuilder pb, Path out, Path err, Pattern marker, java.time.Duration timeout)
            throws UsageException, IOException {
        Process p;
        try {
            p = pb.redirectOutput(ProcessBuilder.Redirect.PIPE).redirectError(ProcessBuilder.Redirect.PIPE).start();
        } catch (IOException e) {
            throw new UsageException("cannot start '" + pb.command().get(0) + "': " + e.getMessage());
        }
        AtomicReference<Instant> marked = new AtomicReference<>();
        Thread o = copier(p.getInputStream(), out, marker, marked);
        Thread e = copier(p.getErrorStream(), err, marker, marked);
        try {
            boolean timedOut = false;
            if (timeout != null && !p.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                timedOut = true;
                // asked first, so that its shutdown hooks run (an observer writes its report in one)
                Command.stop(p, java.time.Duration.ofSeconds(5));
            }
            int status = p.waitFor();
            o.join();
            e.join();
            return new Ended(timedOut ? -1 : status, marked.get(), timedOut);
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted while waiting for the program");
        }
    }

    private static Thread copier(InputStream from, Path to, Pattern marker, AtomicReference<Instant> marked) throws IOException {
        OutputStream file = Files.newOutputStream(to);
        Thread t = new Thread(() -> {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            try (from; file) {
                for (int n; (n = from.read(buf)) > 0; ) {
                    file.write(buf, 0, n);
                    if (marker == null || marked.get() != null) continue;
                    for (int i = 0; i < n; i++) {
                        if (buf[i] != '\n') {
                            line.write(buf[i]);
                        } else {
                            if (marker.matcher(line.toString(StandardCharsets.UTF_8)).find()) marked.compareAndSet(null, Instant.now());
                            line.reset();
                        }
                    }
                }
            } catch (IOException x) {
                // the program's end closed the pipe; what came before it is in the file
            }
        }, "vbd-output-" + to.getFileName());
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * Says on stderr that a run of a vbd command ({@code verb}) failed, with the last lines of its
     * stderr; the status to exit with (1 for a run that exited 0 but failed otherwise).
     */
    static int failed(String verb, String name, int status, Path err) throws IOException {
        java.util.List<String> lines = Files.readAllLines(err, StandardCharsets.UTF_8);
        System.err.println("vbd: " + verb + ": the " + name + " run failed (exit status " + status + "); the end of its stderr:");
        for (String l : lines.subList(Math.max(0, lines.size() - 20), lines.size())) System.err.println("  " + l);
        return status == 0 ? 1 : status;
    }
}
