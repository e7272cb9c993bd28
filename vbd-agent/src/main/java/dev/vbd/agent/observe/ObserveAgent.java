package dev.vbd.agent.observe;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The agent's observing mode, on a stock JDK: no rewriting for SC, only the observer's calls in
 * the program's classes, in the JDK classes that hold a candidate, and where the JDK hands work
 * from thread to thread ({@link JdkHandOffs}). It reads the candidate
 * methods from {@code DIR/candidates.txt} (one {@code owner#name(descriptor)} a line) and what they
 * can reach from {@code DIR/reach.txt}, and writes what it saw to {@code DIR/observed.json} at exit.
 */
public final class ObserveAgent {
    public static final String CANDIDATES = "candidates.txt";
    public static final String OBSERVED = "observed.json";
    /** What to watch: {@code everything}, or {@code field NAME:DESCRIPTOR} and {@code array KIND} lines (KIND 0 to 7: int, long, float, double, reference, byte or boolean, char, short). */
    public static final String REACH = "reach.txt";

    private ObserveAgent() {}

    public static void start(Path dir, Instrumentation inst) throws IOException {
        List<String> candidates = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve(CANDIDATES), StandardCharsets.UTF_8)) {
            if (!line.isBlank()) candidates.add(line.strip());
        }
        Recorder recorder = new Recorder(candidates);
        Path reach = dir.resolve(REACH);
        if (Files.isRegularFile(reach)) recorder.reach(Files.readAllLines(reach, StandardCharsets.UTF_8));
        Observer.start(recorder);
        JdkHandOffs.install(inst, recorder);
        JdkClasses jdk = new JdkClasses(candidates);
        inst.addTransformer(new ObservingTransformer(recorder, jdk), true);
        if (!jdk.isEmpty()) jdk.instrument(inst, recorder);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                recorder.write(dir.resolve(OBSERVED));
            } catch (IOException | RuntimeException e) {
                System.err.println("vbd: the observer could not write " + dir.resolve(OBSERVED) + ": " + e);
            }
        }, "vbd-observer"));
    }
}
