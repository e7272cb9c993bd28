package dev.vbd.bench;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PortableTest {
    @Test
    void reportsNameNoPathOfTheMachineThatMadeThem() {
        String text = "\"--patch-module=java.base=/home/u/.cache/vbd/jdk/17.0.15-4c3c/patch/java.base.jar\", "
                + "\"-javaagent:/src/vbd/vbd-cli/target/vbd.jar=jdk=%2Fhome%2Fu%2F.cache%2Fvbd%2Fjdk%2F17.0.15-4c3c\", "
                + "\"negative\": \"/src/vbd/vbd-bench/relaxed/everything.relaxed\", \"java.home\": \"/usr/lib/jvm/java-17-openjdk-amd64\"";
        assertEquals("\"java\": \"$VBD_CACHE/jdk/17.0.15-4c3c/image/bin/java\"",
                Portable.of("\"java\": \"/home/u/.cache/vbd/jdk/17.0.15-4c3c/image/bin/java\"", Path.of("/src/vbd"), null));
        assertEquals("\"--patch-module=java.base=$VBD_CACHE/jdk/17.0.15-4c3c/patch/java.base.jar\", "
                        + "\"-javaagent:vbd-cli/target/vbd.jar=jdk=%24VBD_CACHE%2Fjdk%2F17.0.15-4c3c\", "
                        + "\"negative\": \"vbd-bench/relaxed/everything.relaxed\", \"java.home\": \"java-17-openjdk-amd64\"",
                Portable.of(text, Path.of("/src/vbd"), "/usr/lib/jvm/java-17-openjdk-amd64"));
    }

    @Test
    void aLogBesideTheReportIsNamedRelativeToIt() {
        String failure = "  full output: /src/vbd/bench-results/2026/logs/fop-vbd-t2-0.log\n  relaxed: /src/vbd/x.relaxed";
        assertEquals("  full output: logs/fop-vbd-t2-0.log\n  relaxed: x.relaxed",
                Portable.of(failure, Path.of("/src/vbd"), null, Path.of("/src/vbd/bench-results/2026")));
    }

    @Test
    void aRelaxedConfigFromOutsideTheCheckoutIsNamedByItsFileNameAlone() {
        assertEquals("vbd-bench/relaxed/top-methods.relaxed",
                Bench.portableName(Path.of("/src/vbd"), Path.of("/src/vbd/vbd-bench/relaxed/top-methods.relaxed")));
        assertEquals("advice.relaxed", Bench.portableName(Path.of("/src/vbd"), Path.of("/tmp/work/advice.relaxed")));
    }
}
