package dev.vbd.cli;

import dev.vbd.host.Jdks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** A JDK named by its {@code java} launcher: where it lives and what version it is. */
public record Jdk(Path launcher, Path home, String version, int feature, String vendor) {
    public static final int MIN_FEATURE = Jdks.MIN_FEATURE;

    /** {@code java} (searched on PATH) or a path to a launcher. Refuses JDKs older than 17. */
    public static Jdk resolve(String word) throws UsageException {
        Path launcher = findLauncher(word);
        Path real;
        try {
            real = launcher.toRealPath();
        } catch (IOException e) {
            throw new UsageException("cannot resolve java launcher '" + word + "': " + e.getMessage());
        }
        Path home = real.getParent() == null ? null : real.getParent().getParent();
        if (home == null) throw new UsageException("'" + word + "' is not inside a JDK (no bin/ parent)");
        Map<String, String> release = Jdks.release(home);
        String version = release.get("JAVA_VERSION");
        if (version == null) {
            version = askVersion(real, word);
        }
        int feature = Jdks.feature(version);
        String vendor = release.getOrDefault("IMPLEMENTOR", "unknown");
        if (feature < MIN_FEATURE) {
            throw new UsageException("'" + word + "' (" + real + ") is Java " + version
                    + "; vbd needs JDK " + MIN_FEATURE + " or later");
        }
        if (!Files.isRegularFile(home.resolve("lib").resolve("modules"))) {
            throw new UsageException("'" + word + "' (" + real + ") has no lib/modules image; vbd needs a full JDK or JRE image");
        }
        return new Jdk(launcher, home, version, feature, vendor);
    }

    private static Path findLauncher(String word) throws UsageException {
        if (word.contains("/")) {
            Path p = Path.of(word);
            if (!Files.isExecutable(p)) throw new UsageException("java launcher '" + word + "' does not exist or is not executable");
            return p;
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(java.io.File.pathSeparator)) {
                if (dir.isEmpty()) continue;
                Path p = Path.of(dir, word);
                if (Files.isExecutable(p) && !Files.isDirectory(p)) return p;
            }
        }
        throw new UsageException("java launcher '" + word + "' not found on PATH");
    }

    private static String askVersion(Path launcher, String word) throws UsageException {
        try {
            String version = Jdks.properties(launcher.toString()).get("java.version");
            if (version != null) return version;
        } catch (IOException e) {
            throw new UsageException("cannot run java launcher '" + word + "': " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        throw new UsageException("cannot tell the Java version of '" + word + "'");
    }
}
