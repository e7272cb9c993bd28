package dev.vbd.cli.advise;

import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedClassLoader;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.stream.LongStream;

/**
 * Where a run spent its time, by method: JFR's execution samples, each counted for the method that
 * was running (its own code, not its callees'), since a relaxed method's own accesses are all that
 * relaxing it changes. vbd's runtime helpers count for the method that called them: they are the
 * fences of that method's accesses. Samples of vbd rewriting classes as they load are left out: that
 * is start-up, not what SC costs.
 *
 * <p>JFR's sampler does not keep the period it is given where the machine is busy, and its pace
 * differs from one run to the next (from under 200 to 700 rounds a second where a thousand were
 * asked, on two cores), so raw counts of two runs of the same work differ by as much. Each recording's samples
 * are therefore scaled to one pace, that of all the recordings read together: a sample stands for
 * the time between two of the sampler's rounds in its own run.
 */
public final class Profile {
    /** Samples per method at the common pace, keyed {@code owner#name(descriptor)}, owner dotted. */
    final Map<String, Long> samples = new HashMap<>();
    /**
     * Each run's samples per method at the common pace, where the profile is of several: how much a
     * method's count varies from one run of the same work to the next.
     */
    final List<Map<String, Long>> perRun = new ArrayList<>();
    /** Methods whose class the application's loaders defined, not the JDK's. */
    final Set<String> program = new HashSet<>();
    long total;
    /** The sampler's pace, rounds a second: over all the recordings read together, and the slowest and fastest one's. */
    private double pace, slowest, fastest;
    private int runs;

    public long total() {
        return total;
    }

    /** How the sampler kept pace, for a report: {@code periodMs} is the period it was asked for. */
    public String paceInWords(int periodMs) {
        if (pace == 0) return "the sampler's pace unknown (no run had two rounds): samples as counted";
        return String.format(Locale.ROOT, "the sampler took %.0f rounds a second over the %d runs (%d asked), from %.0f to %.0f in one run:"
                + " each run's samples are scaled to %.0f", pace, runs, 1000 / periodMs, slowest, fastest, pace);
    }

    /** The JFR settings for a run to profile: execution samples, nothing else, every {@code periodMs}. */
    public static String settings(int periodMs) {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <configuration version="2.0" label="vbd advise">
                  <event name="jdk.ExecutionSample">
                    <setting name="enabled">true</setting>
                    <setting name="period">%d ms</setting>
                  </event>
                </configuration>
                """.formatted(periodMs);
    }

    /** A run's recording; only its samples from {@code from} on count (all of them when it is null). */
    public record Recording(Path file, Instant from) {}

    /** The samples of several recordings of the same work, summed, each scaled to their common pace. */
    public static Profile read(List<Recording> recordings) throws IOException {
        return readAtOnePace(List.of(recordings)).get(0);
    }

    /**
     * A profile of each group of recordings (the same work under stock Java, say, and under vbd),
     * every recording's samples scaled to the pace of all of them, so that the profiles compare.
     */
    public static List<Profile> readAtOnePace(List<List<Recording>> groups) throws IOException {
        List<List<Run>> runs = new ArrayList<>();
        for (List<Recording> group : groups) {
            List<Run> g = new ArrayList<>();
            for (Recording r : group) g.add(Run.read(r));
            runs.add(g);
        }
        return atOnePace(runs);
    }

    /** A profile of each recording, every one's samples scaled to the pace of all of them. */
    public static List<Profile> eachAtOnePace(List<Recording> recordings) throws IOException {
        return readAtOnePace(recordings.stream().map(List::of).toList());
    }

    /** Profiles at one pace, summed into one. */
    public static Profile summed(List<Profile> profiles) {
        Profile sum = new Profile();
        for (Profile p : profiles) {
            p.samples.forEach((m, n) -> sum.samples.merge(m, n, Long::sum));
            sum.perRun.addAll(p.perRun.isEmpty() ? List.of(p.samples) : p.perRun);
            sum.program.addAll(p.program);
            sum.total += p.total;
        }
        return sum;
    }

    /** Each run's samples of the methods {@code scope} covers (none where the profile kept no runs apart). */
    public long[] samplesPerRun(Cost scope) {
        return perRun.stream().mapToLong(run -> covered(run, scope)).toArray();
    }

    /** The samples of the methods {@code scope} covers. */
    public long samples(Cost scope) {
        return covered(samples, scope);
    }

    private static long covered(Map<String, Long> samples, Cost scope) {
        long n = 0;
        for (Map.Entry<String, Long> e : samples.entrySet()) if (scope.covers(e.getKey())) n += e.getValue();
        return n;
    }

    /** A profile of each group of runs, each run's samples scaled to the pace of all of them. */
    static List<Profile> atOnePace(List<List<Run>> runs) {
        long intervals = 0;
        double seconds = 0, slowest = Double.MAX_VALUE, fastest = 0;
        int counted = 0;
        for (List<Run> g : runs) {
            for (Run run : g) {
                if (run.rounds.intervals() == 0) continue;
                intervals += run.rounds.intervals();
                seconds += run.rounds.seconds();
                slowest = Math.min(slowest, run.rounds.pace());
                fastest = Math.max(fastest, run.rounds.pace());
                counted++;
            }
        }
        double pace = counted > 0 ? intervals / seconds : 0;
        List<Profile> profiles = new ArrayList<>();
        for (List<Run> g : runs) {
            Profile p = new Profile();
            Map<String, Double> scaled = new HashMap<>();
            double total = 0;
            for (Run run : g) {
                double scale = run.rounds.intervals() > 0 && pace > 0 ? pace / run.rounds.pace() : 1;
                run.samples.forEach((m, n) -> scaled.merge(m, n * scale, Double::sum));
                Map<String, Long> own = new HashMap<>();
                run.samples.forEach((m, n) -> own.put(m, Math.round(n * scale)));
                p.perRun.add(own);
                total += run.total * scale;
                p.program.addAll(run.program);
            }
            scaled.forEach((m, n) -> p.samples.put(m, Math.round(n)));
            p.total = Math.round(total);
            p.pace = pace;
            p.slowest = slowest;
            p.fastest = fastest;
            p.runs = counted;
            profiles.add(p);
        }
        return profiles;
    }

    /**
     * The sampler's rounds in a run, and the time from the first's start to the last's: the samples of
     * one round are taken within microseconds of each other, rounds at least a period apart. A gap longer than {@link #LONGEST_ROUND} is a spell with
     * no thread in Java code (the program waiting, or the JVM stopped for the collector), not a
     * round that stood for it, so it counts as that long.
     */
    record Rounds(long intervals, double seconds) {
        static final long SAME_ROUND_NANOS = 500_000;
        static final long LONGEST_ROUND = 50_000_000;

        /** {@code t}: the samples' times in nanoseconds, in any order (sorted here). */
        static Rounds of(long[] t) {
            Arrays.sort(t);
            long intervals = 0, nanos = 0;
            for (int i = 1, round = 0; i < t.length; i++) {
                if (t[i] - t[i - 1] <= SAME_ROUND_NANOS) continue;
                intervals++;
                nanos += Math.min(t[i] - t[round], LONGEST_ROUND);
                round = i;
            }
            return new Rounds(intervals, nanos / 1e9);
        }

        double pace() {
            return intervals / seconds;
        }
    }

    /** One recording's samples as counted, and its sampler's rounds. */
    record Run(Map<String, Long> samples, Set<String> program, long total, Rounds rounds) {
        static Run read(Recording recording) throws IOException {
            Map<String, Long> samples = new HashMap<>();
            Set<String> program = new HashSet<>();
            long total = 0;
            LongStream.Builder times = LongStream.builder();
            try (RecordingFile file = new RecordingFile(recording.file())) {
                while (file.hasMoreEvents()) {
                    RecordedEvent e = file.readEvent();
                    if (!e.getEventType().getName().equals("jdk.ExecutionSample")) continue;
                    if (recording.from() != null && e.getStartTime().isBefore(recording.from())) continue;
                    Instant at = e.getStartTime();
                    times.add(at.getEpochSecond() * 1_000_000_000L + at.getNano());
                    RecordedStackTrace stack = e.getStackTrace();
                    if (stack == null || rewriting(stack)) continue;
                    for (RecordedFrame f : stack.getFrames()) {
                        if (!f.isJavaFrame() || f.getMethod() == null) continue;
                        RecordedMethod m = f.getMethod();
                        RecordedClass type = m.getType();
                        if (isVbdRuntime(type.getName())) continue;
                        String key = type.getName() + "#" + m.getName() + m.getDescriptor();
                        samples.merge(key, 1L, Long::sum);
                        if (isProgram(type)) program.add(key);
                        break;
                    }
                    total++;
                }
            }
            return new Run(samples, program, total, Rounds.of(times.build().toArray()));
        }
    }

    /** Whether a sample caught vbd rewriting a class as it loads: start-up, which SC's cost does not include. */
    private static boolean rewriting(RecordedStackTrace stack) {
        for (RecordedFrame f : stack.getFrames()) {
            if (f.getMethod() != null && f.getMethod().getType().getName().startsWith(REWRITER)) return true;
        }
        return false;
    }

    /** vbd's rewriting code as the runtime image carries it, relocated into java.base. */
    private static final String REWRITER = "jdk.internal.misc.Vbd_";

    static boolean isVbdRuntime(String className) {
        return className.startsWith("java.util.concurrent.atomic.Vbd") || className.startsWith("java.lang.invoke.Vbd")
                || className.startsWith("java.lang.Vbd");
    }

    private static boolean isProgram(RecordedClass type) {
        RecordedClassLoader loader = type.getClassLoader();
        if (loader == null || loader.getName() == null) return false; // the boot loader
        String name = loader.getName();
        if (name.equals("platform") || name.equals("bootstrap")) return false;
        String c = type.getName();
        // the JDK's own modules that the application loader defines
        return !(c.startsWith("com.sun.") || c.startsWith("jdk.") || c.startsWith("sun.") || c.startsWith("java.")
                || c.startsWith("javax.") || c.startsWith("dev.vbd.agent.") || c.startsWith("dev.vbd.core.")
                || c.startsWith("dev.vbd.shaded."));
    }

    public long samples(String method) {
        return samples.getOrDefault(method, 0L);
    }
}
