package dev.vbd.litmus.run;

import dev.vbd.host.Command;
import dev.vbd.host.Jdks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The JVM configurations jcstress probes, and so runs every test in, under {@link JcstressHost}: one
 * neutral option, as {@code vbd litmus} gives, and a test filter that matches nothing.
 */
class JcstressHostTest {
    @TempDir
    Path dir;

    @Test
    void onJdk17DefaultLockingRunsEachTestOnceWhereJcstressRunsItWithBiasedLockingOnAndOff() throws Exception {
        Jdks.Jdk jdk17 = Jdks.forTests(17).orElseThrow(() -> new AssertionError("no JDK 17 to test on"));
        Probe split = probe(jdk17, false);
        assertTrue(split.biasedLocking(), "JDK 17 has biased locking: " + split);
        assertEquals(List.of("-XX:+UseBiasedLocking, -XX:+UseG1GC", "-XX:-UseBiasedLocking, -XX:+UseG1GC"), split.configurations());
        assertEquals(List.of("-XX:+UseG1GC"), probe(jdk17, true).configurations());
    }

    @Test
    void onJdk25WithoutBiasedLockingEitherWayRunsEachTestOnce() throws Exception {
        var jdk25 = Jdks.forTests(25);
        assumeTrue(jdk25.isPresent(), "no JDK 25 installed");
        assertEquals(List.of("-XX:+UseG1GC"), probe(jdk25.get(), false).configurations());
        assertEquals(List.of("-XX:+UseG1GC"), probe(jdk25.get(), true).configurations());
    }

    /** What jcstress found: whether the JVM has biased locking, and the JVM configurations it runs each test in. */
    private record Probe(boolean biasedLocking, List<String> configurations) {}

    private Probe probe(Jdks.Jdk jdk, boolean defaultLocking) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(jdk.java().toString(), "-cp", System.getProperty("java.class.path")));
        cmd.addAll(JcstressHost.command(0, defaultLocking));
        cmd.addAll(List.of("-jvmArgs", "-XX:+UseG1GC", "-t", "^no test has this name$", "-m", "quick"));
        Command.Result r = Command.of(cmd).in(dir).timeout(Duration.ofMinutes(3)).run();
        assertTrue(r.succeeded(), r.output());
        List<String> configs = new ArrayList<>();
        boolean biased = false, probing = false;
        for (String line : r.output().split("\\R")) {
            biased |= line.equals("----- [OK] Checking for biased locking support");
            if (line.startsWith("Probing what VM configurations are available")) probing = true;
            else if (probing && line.startsWith("----- [OK] [")) configs.add(line.substring("----- [OK] [".length(), line.length() - 1));
            else if (probing && line.startsWith("Detecting CPU topology")) break;
        }
        assertFalse(configs.isEmpty(), r.output());
        return new Probe(biased, configs);
    }
}
