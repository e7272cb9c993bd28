package dev.vbd.it.support;

import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The JDKs the end-to-end tests run on: {@code java} from PATH (expected to be JDK 17) and
 * Temurin 25 where it is installed. A missing JDK 25 skips its tests instead of failing them,
 * because CI images need not carry it; a PATH java of the wrong release fails, because then
 * "JDK 17" results would silently be about another JDK.
 */
public final class Jvms {
    public static final Path TEMURIN_25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");

    private static final Map<Integer, Jvm> FOUND = new ConcurrentHashMap<>();

    private Jvms() {}

    /** The JDK of this feature release; skips the calling test (JUnit assumption) where it is not installed. */
    public static Jvm require(int feature) {
        return FOUND.computeIfAbsent(feature, Jvms::find);
    }

    private static Jvm find(int feature) {
        switch (feature) {
            case 17: {
                Path java = onPath("java");
                if (java == null) {
                    throw new IllegalStateException("no 'java' on PATH (" + System.getenv("PATH") + "); the JDK 17 tests need it");
                }
                Jvm jvm = describe(java);
                if (jvm.feature() != 17) {
                    throw new IllegalStateException("'java' on PATH is " + jvm + ", expected JDK 17");
                }
                return jvm;
            }
            case 25: {
                Assumptions.assumeTrue(Files.isExecutable(TEMURIN_25),
                        "Temurin 25 is not installed at " + TEMURIN_25 + ": JDK 25 tests skipped");
                Jvm jvm = describe(TEMURIN_25);
                if (jvm.feature() != 25) {
                    throw new IllegalStateException(TEMURIN_25 + " is " + jvm + ", expected JDK 25");
                }
                return jvm;
            }
            default:
                throw new IllegalArgumentException("no JDK " + feature + " is configured for the end-to-end tests (17 and 25 are)");
        }
    }

    private static Path onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) return null;
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) continue;
            Path p = Path.of(dir, name);
            if (Files.isExecutable(p) && !Files.isDirectory(p)) return p.toAbsolutePath();
        }
        return null;
    }

    /** Reads JAVA_VERSION from the JDK's {@code release} file, which every JDK image since 9 has. */
    private static Jvm describe(Path launcher) {
        Path home;
        try {
            home = launcher.toRealPath().getParent().getParent();
        } catch (IOException e) {
            throw new IllegalStateException("cannot resolve java launcher " + launcher + ": " + e.getMessage(), e);
        }
        Path release = home.resolve("release");
        try {
            for (String line : Files.readAllLines(release, StandardCharsets.UTF_8)) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String version = line.substring("JAVA_VERSION=".length()).replace("\"", "").trim();
                    String first = version.split("[.+\\-]")[0];
                    return new Jvm(Integer.parseInt(first), launcher, version);
                }
            }
        } catch (IOException | NumberFormatException e) {
            throw new IllegalStateException("cannot read the version of " + launcher + " from " + release + ": " + e.getMessage(), e);
        }
        throw new IllegalStateException(release + " has no JAVA_VERSION line; cannot tell which JDK " + launcher + " is");
    }
}
