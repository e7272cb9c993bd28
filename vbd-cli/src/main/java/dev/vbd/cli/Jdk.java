package dev.vbd.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A JDK named by its {@code java} launcher: where it lives and what version it is. */
public record Jdk(Path launcher, Path home, String version, int feature, String vendor) {
    public static final int MIN_FEATURE = 17;

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
        Map<String, String> release = readRelease(home);
        String version = release.get("JAVA_VERSION");
        if (version == null) {
            version = askVersion(real, word);
        }
        int feature = feature(version);
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

    static Map<String, String> readRelease(Path home) {
        Map<String, String> m = new LinkedHashMap<>();
        Path f = home.resolve("release");
        if (!Files.isRegularFile(f)) return m;
        try {
            for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                int eq = line.indexOf('=');
                if (eq <= 0) continue;
                String v = line.substring(eq + 1).trim();
                if (v.startsWith("\"") && v.endsWith("\"") && v.length() >= 2) v = v.substring(1, v.length() - 1);
                m.put(line.substring(0, eq).trim(), v);
            }
        } catch (IOException e) {
            // an unreadable release file is treated as absent
        }
        return m;
    }

    private static String askVersion(Path launcher, String word) throws UsageException {
        try {
            Process p = new ProcessBuilder(launcher.toString(), "-XshowSettings:properties", "-version")
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) p.destroyForcibly();
            for (String line : out.split("\n")) {
                line = line.trim();
                if (line.startsWith("java.version = ")) return line.substring("java.version = ".length());
            }
        } catch (IOException e) {
            throw new UsageException("cannot run java launcher '" + word + "': " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        throw new UsageException("cannot tell the Java version of '" + word + "'");
    }

    static int feature(String version) {
        String v = version.startsWith("1.") ? version.substring(2) : version;
        StringBuilder digits = new StringBuilder();
        for (char c : v.toCharArray()) {
            if (!Character.isDigit(c)) break;
            digits.append(c);
        }
        return digits.length() == 0 ? 0 : Integer.parseInt(digits.toString());
    }
}
