package dev.vbd.host;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * JDKs on this machine: what version a launcher is, and which JDKs (17 and later) the tests run on.
 *
 * <p>The tests' JDKs are those {@code $VBD_TEST_JDKS} names (JDK homes or {@code java} launchers,
 * separated by {@code :}), else the JDK running the tests together with every JDK installed in the
 * system's JVM directory ({@code $VBD_JVM_DIR}, by default {@code /usr/lib/jvm}).
 */
public final class Jdks {
    public static final int MIN_FEATURE = 17;
    private static final Path SYSTEM_JVMS = Path.of("/usr/lib/jvm");
    private static volatile List<Jdk> forTests;

    private Jdks() {}

    /** An installed JDK: its home, its launcher, its version ({@code JAVA_VERSION}) and feature release. */
    public record Jdk(Path home, Path java, String version, int feature) {
        @Override
        public String toString() {
            return "JDK " + version + " at " + home;
        }
    }

    /** The JDKs 17 and later to test on, oldest first, each home once. */
    public static List<Jdk> forTests() {
        if (forTests == null) forTests = find(System.getenv("VBD_TEST_JDKS"));
        return forTests;
    }

    /** The first JDK to test on of this feature release; empty when none is installed. */
    public static Optional<Jdk> forTests(int feature) {
        return forTests().stream().filter(j -> j.feature() == feature).findFirst();
    }

    static List<Jdk> find(String named) {
        List<Path> candidates = new ArrayList<>();
        if (named != null && !named.isBlank()) {
            for (String s : named.split(File.pathSeparator)) if (!s.isBlank()) candidates.add(Path.of(s.trim()));
        } else {
            candidates.add(Path.of(System.getProperty("java.home")));
            String dir = System.getenv("VBD_JVM_DIR");
            Path jvms = dir == null || dir.isBlank() ? SYSTEM_JVMS : Path.of(dir);
            if (Files.isDirectory(jvms)) {
                try (Stream<Path> s = Files.list(jvms)) {
                    s.sorted().forEach(candidates::add);
                } catch (IOException e) {
                    // an unreadable JVM directory adds no JDKs
                }
            }
        }
        Map<Path, Jdk> byHome = new LinkedHashMap<>();
        for (Path c : candidates) {
            Jdk jdk = at(c);
            if (jdk != null && jdk.feature() >= MIN_FEATURE) byHome.putIfAbsent(jdk.home(), jdk);
        }
        List<Jdk> all = new ArrayList<>(byHome.values());
        all.sort(Comparator.comparingInt(Jdk::feature));
        return List.copyOf(all);
    }

    /** The JDK whose home, or whose {@code bin/java}, this is; null when it is neither. */
    public static Jdk at(Path homeOrLauncher) {
        Path real;
        try {
            real = homeOrLauncher.toRealPath();
        } catch (IOException e) {
            return null;
        }
        Path home = Files.isDirectory(real) ? real : real.getParent() == null ? null : real.getParent().getParent();
        if (home == null) return null;
        Path java = home.resolve("bin").resolve("java");
        String version = release(home).get("JAVA_VERSION");
        if (!Files.isExecutable(java) || version == null) return null;
        return new Jdk(home, java, version, feature(version));
    }

    /** The {@code release} file of a JDK home (every JDK image since 9 has one); empty when it is missing. */
    public static Map<String, String> release(Path home) {
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

    /** The system properties a {@code java} launcher reports; empty when it does not run as one. */
    public static Map<String, String> properties(String java) throws IOException, InterruptedException {
        Command.Result r = Command.of(java, "-XshowSettings:properties", "-version").timeout(Duration.ofSeconds(60)).run();
        Map<String, String> m = new LinkedHashMap<>();
        if (!r.succeeded()) return m;
        for (String line : r.output().split("\n")) {
            int eq = line.indexOf(" = ");
            if (eq > 0 && !line.isBlank()) m.putIfAbsent(line.substring(0, eq).trim(), line.substring(eq + 3).trim());
        }
        return m;
    }

    /** The feature release of a version string: 17 for "17.0.9", 8 for "1.8.0_392". */
    public static int feature(String version) {
        String v = version.startsWith("1.") ? version.substring(2) : version;
        int end = 0;
        while (end < v.length() && Character.isDigit(v.charAt(end))) end++;
        return end == 0 ? 0 : Integer.parseInt(v.substring(0, end));
    }
}
