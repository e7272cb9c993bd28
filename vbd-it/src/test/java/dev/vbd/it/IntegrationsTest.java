package dev.vbd.it;

import dev.vbd.host.Command;
import dev.vbd.host.Trees;
import dev.vbd.it.support.Programs;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The integrations docs/integrations.md shows, run end to end: a Maven project
 * ({@code vbd-it/src/test/projects/surefire}) whose test passes only in a fork under vbd. With
 * Surefire's {@code jvm} set to the {@code bin/java} that {@code vbd java-home} prints, it passes;
 * with the stock {@code java}, the same test fails.
 */
class IntegrationsTest {
    @Test
    void surefireForksRunUnderVbdThroughJavaHome() throws Exception {
        Result home = run(List.of(Programs.home().resolve("bin/vbd").toString(), "java-home", "--", "java"), Programs.home());
        assertEquals(0, home.status(), home.out());
        Path java = Path.of(home.out().strip().lines().reduce((a, b) -> b).orElseThrow()).resolve("bin/java");
        Path project = copy("surefire");

        Result vbd = maven(project, java.toString());
        assertEquals(0, vbd.status(), "the fork runs under vbd\n" + vbd.out());
        assertTrue(vbd.out().contains("Tests run: 1, Failures: 0, Errors: 0"), vbd.out());

        Result stock = maven(project, Path.of(System.getProperty("java.home"), "bin", "java").toString());
        assertNotEquals(0, stock.status(), "the same test fails in a stock fork: it can tell\n" + stock.out());
        assertTrue(stock.out().contains("VbdFieldModifiers"), stock.out());
    }

    record Result(int status, String out) {}

    private static Result maven(Path project, String java) throws Exception {
        // offline: the plugins and JUnit are the ones this build itself used
        return run(List.of("mvn", "-o", "-B", "-ntp", "test", "-Dvbd.java=" + java), project);
    }

    private static Path copy(String name) throws IOException {
        Path src = Programs.home().resolve("vbd-it/src/test/projects").resolve(name);
        Path dst = Programs.target().resolve("it-projects").resolve(name);
        Trees.delete(dst);
        try (Stream<Path> s = Files.walk(src)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path t = dst.resolve(src.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t);
                else Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return dst;
    }

    private static Result run(List<String> cmd, Path dir) throws Exception {
        Path log = Files.createTempFile(Programs.target(), "integration-", ".log");
        Command.Result r = Command.of(cmd).in(dir).outputTo(log).timeout(Duration.ofMinutes(15)).run();
        if (r.timedOut()) throw new AssertionError("timed out: " + cmd);
        return new Result(r.status(), Files.readString(log, StandardCharsets.UTF_8));
    }
}
