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
        List<String> split = configurations(jdk17, false);
        assertEquals(List.of("-XX:+UseBiasedLocking, -XX:+UseG1GC", "-XX:-UseBiasedLocking, -XX:+UseG1GC"), split);
        assertEquals(List.of("-XX:+UseG1GC"), configurations(jdk17, true));
    }

    @Test
    void onJdk25WithoutBiasedLockingEitherWayRunsEachTestOnce() throws Exception {
        var jdk25 = Jdks.forTests(25);
        assumeTrue(jdk25.isPresent(), "no JDK 25 installed");
        assertEquals(List.of("-XX:+UseG1GC"), configurations(jdk25.get(), false));
        assertEquals(List.of("-XX:+UseG1GC"), configurations(jdk25.get(), true));
    }

    private List<String> configurations(Jdks.Jdk jdk, boolean defaultLocking) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(jdk.java().toString(), "-cp", System.getProperty("java.class.path")));
        cmd.addAll(JcstressHost.command(0, defaultLocking));
        cmd.addAll(List.of("-jvmArgs", "-XX:+UseG1GC", "-t", "^no test has this name$", "-m", "quick"));
        Command.Result r = Command.of(cmd).in(dir).timeout(Duration.ofMinutes(3)).run();
        assertTrue(r.succeeded(), r.output());
        List<String> configs = new ArrayList<>();
        boolean probing = false;
        for (String line : r.output().split("\\R")) {
            if (line.startsWith("Probing what VM configurations are available")) probing = true;
            else if (probing && line.startsWith("----- [OK] [")) configs.add(line.substring("----- [OK] [".length(), line.length() - 1));
            else if (probing && line.startsWith("Detecting CPU topology")) break;
        }
        assertFalse(configs.isEmpty(), r.output());
        return configs;
    }
}
