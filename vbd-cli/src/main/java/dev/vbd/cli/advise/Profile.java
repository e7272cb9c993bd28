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
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.HashSet;
import java.util.List;

/**
 * Where a run spent its time, by method: JFR's execution samples, each counted for the method that
 * was running (its own code, not its callees'), since a relaxed method's own accesses are all that
 * relaxing it changes. vbd's runtime helpers count for the method that called them: they are the
 * fences of that method's accesses. Samples of vbd rewriting classes as they load are left out: that
 * is start-up, not what SC costs.
 */
public final class Profile {
    /** Samples per method, keyed {@code owner#name(descriptor)}, owner dotted. */
    final Map<String, Long> samples = new HashMap<>();
    /** Methods whose class the application's loaders defined, not the JDK's. */
    final Set<String> program = new HashSet<>();
    private long total;

    public long total() {
        return total;
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

    /** The samples of several recordings of the same work, summed. */
    public static Profile read(List<Recording> recordings) throws IOException {
        Profile p = new Profile();
        for (Recording r : recordings) p.add(r);
        return p;
    }

    private void add(Recording recording) throws IOException {
        try (RecordingFile file = new RecordingFile(recording.file())) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                if (!e.getEventType().getName().equals("jdk.ExecutionSample")) continue;
                if (recording.from() != null && e.getStartTime().isBefore(recording.from())) continue;
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
