package dev.vbd.bench;

import dev.vbd.host.Command;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a figure depends on besides the code: CPU, core count, memory, OS, load, the JDK measured
 * and the build of vbd. Recorded in every result file, because a ratio means nothing without them.
 */
final class Machine {
    private Machine() {}

    static Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cpu", cpuModel());
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("memory_gib", memoryGib());
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        m.put("load_average_at_start", loadAverage());
        return m;
    }

    static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) return line.substring(line.indexOf(':') + 1).trim();
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: fall through
        }
        return System.getProperty("os.arch") + " (model unknown)";
    }

    static Double memoryGib() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
                    return Math.round(kb / 1024.0 / 1024.0 * 10) / 10.0;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return null;
    }

    /**
     * The share of all CPUs' time that was busy over the next {@code millis} ms (Linux's /proc/stat),
     * or null where it cannot be read. Taken while the bench itself runs nothing, it is other work's.
     */
    static Double busyFraction(long millis) throws InterruptedException {
        long[] a = cpuTimes();
        Thread.sleep(millis);
        long[] b = cpuTimes();
        if (a == null || b == null || b[0] <= a[0]) return null;
        return (double) ((b[0] - a[0]) - (b[1] - a[1])) / (b[0] - a[0]);
    }

    /** All CPUs' time so far in clock ticks: total, and idle (idle and iowait). */
    private static long[] cpuTimes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/stat"))) {
                if (!line.startsWith("cpu ")) continue;
                String[] f = line.trim().split("\\s+");
                long total = 0;
                for (int i = 1; i < Math.min(f.length, 9); i++) total += Long.parseLong(f[i]);
                return new long[] {total, Long.parseLong(f[4]) + Long.parseLong(f[5])};
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return null;
    }

    /** The 1-, 5- and 15-minute load averages: other work on a shared machine shows here. */
    static List<Double> loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return List.of(Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2]));
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /** The measured JDK's identity, from its own system properties. */
    static Map<String, Object> jdk(String java) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("java", java);
        String out = capture(List.of(java, "-XshowSettings:properties", "-version"));
        for (String key : List.of("java.home", "java.runtime.version", "java.vendor", "java.vm.name", "java.vm.version")) {
            m.put(key, property(out, key));
        }
        if (m.get("java.runtime.version") == null) {
            throw new IllegalArgumentException("--java: '" + java + "' did not report a version; is it a java launcher?\n" + out);
        }
        return m;
    }

    private static String property(String settings, String key) {
        for (String line : settings.lines().toList()) {
            String t = line.trim();
            if (t.startsWith(key + " = ")) return t.substring(key.length() + 3);
        }
        return null;
    }

    /** The repository's commit and whether its tree had changes: which vbd was measured. */
    static Map<String, Object> vbdBuild(Path repo) {
        Map<String, Object> m = new LinkedHashMap<>();
        String head = capture(List.of("git", "-C", repo.toString(), "rev-parse", "HEAD")).trim();
        m.put("commit", head.matches("[0-9a-f]{40}") ? head : null);
        String status = capture(List.of("git", "-C", repo.toString(), "status", "--porcelain", "--untracked-files=no"));
        m.put("modified", !status.isBlank());
        m.put("vbd_jar_sha256", sha256(repo.resolve("vbd-cli/target/vbd.jar")));
        return m;
    }

    static String sha256(Path file) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (IOException e) {
            return null;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** stdout and stderr of a short command; empty when it cannot run. */
    static String capture(List<String> command) {
        try {
            return Command.of(command).timeout(Duration.ofSeconds(60)).run().output();
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
