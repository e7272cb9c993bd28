package dev.vbd.cli;

import dev.vbd.core.Conventions;
import dev.vbd.core.policy.RelaxedConfig;
import dev.vbd.core.policy.RelaxedConfigException;
import dev.vbd.core.rewrite.FieldMode;
import dev.vbd.core.rewrite.Optimisations;
import dev.vbd.host.Trees;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.nio.file.attribute.FileTime;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The rewritten JDK, prepared once per JDK build (and per relaxed config, which can reach JDK
 * code, and per way of making the JDK's fields SC, {@link FieldMode#jdk()}) under the cache directory: {@code $VBD_CACHE}, else {@code $XDG_CACHE_HOME/vbd}, else
 * {@code ~/.cache/vbd}, unless {@code --cache} names another. Layout: {@code patch/<module>.jar},
 * {@code modules.txt}, {@code boot-modules.txt}, {@code fields.txt}, {@code fenced-fields.txt}, {@code report.json}, {@code complete}, {@code last-used}.
 *
 * <p>An entry is keyed by the content of vbd's jar, so identical builds share it, and several
 * builds (two checkouts, say) keep theirs side by side: at most {@link #keep()} entries per JDK
 * home, the least recently used removed first when a new one is prepared.
 */
public final class JdkCache {
    /** Entries kept per JDK home unless {@value #KEEP_ENV} says otherwise. */
    static final int DEFAULT_KEEP = 4;
    static final String KEEP_ENV = "VBD_CACHE_KEEP";
    private static final String LAST_USED = "last-used";

    private JdkCache() {}

    public static Path defaultRoot() {
        String env = System.getenv("VBD_CACHE");
        if (env != null && !env.isEmpty()) return Path.of(env);
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isEmpty()) return Path.of(xdg, "vbd");
        return Path.of(System.getProperty("user.home"), ".cache", "vbd");
    }

    /** How many prepared JDKs to keep per JDK home: {@value #KEEP_ENV}, else {@value #DEFAULT_KEEP}. */
    static int keep() throws UsageException {
        return keep(System.getenv(KEEP_ENV));
    }

    static int keep(String value) throws UsageException {
        if (value == null || value.isBlank()) return DEFAULT_KEEP;
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= 1) return n;
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(KEEP_ENV + "='" + value + "' is not a positive whole number (prepared JDKs to keep per JDK)");
    }

    /**
     * The prepared directory for this JDK, its fields made SC as {@code fields} says (volatile or
     * fenced) and its accesses left plain as {@code optimise} says, preparing it first if needed;
     * {@code quiet} keeps the preparation's progress off stderr (its output is still shown if it fails).
     */
    public static Path prepared(Path root, Jdk jdk, Path relaxed, FieldMode fields, Optimisations optimise, Path vbdJar,
                                boolean quiet)
            throws UsageException, IOException {
        return prepared(root, jdk, relaxed, fields, optimise, vbdJar, quiet, keep());
    }

    /** The same, keeping {@code keep} prepared JDKs per JDK home. */
    static Path prepared(Path root, Jdk jdk, Path relaxed, FieldMode fields, Optimisations optimise, Path vbdJar,
                         boolean quiet, int keep)
            throws UsageException, IOException {
        if (fields != fields.jdk()) throw new IllegalArgumentException("the JDK's fields cannot be " + fields.word());
        if (relaxed != null) {
            // Most configs name only application code: they share the JDK prepared without a config.
            Path base = prepared(root, jdk, null, fields, optimise, vbdJar, quiet, keep);
            Path classes = base.resolve("classes.txt");
            try {
                if (Files.isRegularFile(classes)
                        && !RelaxedConfig.load(relaxed).reachesAny(Files.readAllLines(classes, StandardCharsets.UTF_8))) {
                    return base;
                }
            } catch (RelaxedConfigException e) {
                throw new UsageException("bad relaxed config: " + e.getMessage());
            }
        }
        String key = key(jdk, relaxed, fields, optimise, vbdJar);
        Path dir = root.resolve("jdk").resolve(sanitize(jdk.version()) + "-" + key);
        if (Files.isRegularFile(dir.resolve("complete"))) return used(dir);
        Files.createDirectories(dir.getParent());
        // One preparation per JDK at a time, across processes: the others wait, then reuse it.
        Path lockFile = dir.getParent().resolve(dir.getFileName() + ".lock");
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(lockFile,
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE)) {
            java.nio.channels.FileLock lock = ch.tryLock();
            if (lock == null) {
                if (!quiet) System.err.println("vbd: waiting for another vbd that is preparing " + jdk.home());
                lock = ch.lock();
            }
            try {
                if (Files.isRegularFile(dir.resolve("complete"))) return used(dir);
                prepare(dir, jdk, relaxed, fields, optimise, vbdJar, quiet);
                used(dir);
                prune(dir.getParent(), jdk.home().toString(), keep);
                return dir;
            } finally {
                lock.release();
            }
        }
    }

    private static void prepare(Path dir, Jdk jdk, Path relaxed, FieldMode fields, Optimisations optimise, Path vbdJar,
                                boolean quiet)
            throws UsageException, IOException {
        Trees.delete(dir); // a run killed half-way leaves no 'complete'
        Path tmp = Files.createTempDirectory(dir.getParent(), "preparing-");
        try {
            if (!quiet) {
                System.err.println("vbd: preparing " + jdk.vendor() + " JDK " + jdk.version() + " (" + jdk.home()
                        + (fields.sc() ? ") for sequential consistency, " + fields.word() + " fields" : ") for safe construction")
                        + (optimise == Optimisations.ALL ? "" : ", optimising " + optimise.word()) + "; cached in " + dir);
            }
            List<String> cmd = new ArrayList<>(List.of(jdk.launcher().toString(), "-Xshare:off",
                    "-cp", vbdJar.toString(), PrepareJdk.class.getName(), tmp.toString(), PrepareJdk.FIELDS + fields.word()));
            if (optimise != Optimisations.ALL) cmd.add(PrepareJdk.OPTIMISE + optimise.word());
            if (relaxed != null) cmd.add(relaxed.toString());
            ProcessBuilder pb = new ProcessBuilder(cmd);
            pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
            // kept aside when quiet, for the message should the preparation fail
            Path log = dir.getParent().resolve(tmp.getFileName() + ".log");
            pb.redirectError(quiet ? ProcessBuilder.Redirect.to(log.toFile()) : ProcessBuilder.Redirect.INHERIT);
            int rc;
            try {
                rc = pb.start().waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while preparing the JDK");
            } finally {
                if (!quiet) Files.deleteIfExists(log);
            }
            try {
                if (rc != 0) {
                    String why = quiet && Files.isRegularFile(log) ? ":\n" + tail(Files.readString(log, StandardCharsets.UTF_8)) : "";
                    throw new UsageException("preparing " + jdk.home() + " failed (exit status " + rc + ")" + why);
                }
            } finally {
                Files.deleteIfExists(log);
            }
            Files.writeString(tmp.resolve("vbd-jar.txt"), jarIdentity(vbdJar) + "\n");
            Files.writeString(tmp.resolve("complete"), jdk.home() + "\n");
            Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Trees.delete(tmp);
        }
    }

    private static String tail(String text) {
        String[] lines = text.strip().split("\n");
        return String.join("\n", java.util.Arrays.asList(lines).subList(Math.max(0, lines.length - 20), lines.length));
    }

    /**
     * Notes that an entry was used now, for least-recently-used removal: one time stamp, no
     * content. A read-only cache is still usable; it is then never pruned by use.
     */
    static Path used(Path dir) {
        Path stamp = dir.resolve(LAST_USED);
        try {
            FileTime now = FileTime.fromMillis(System.currentTimeMillis());
            if (!Files.exists(stamp)) Files.createFile(stamp);
            Files.setLastModifiedTime(stamp, now);
        } catch (IOException e) {
            // not worth failing a run for
        }
        return dir;
    }

    static long lastUsed(Path dir) {
        try {
            Path stamp = dir.resolve(LAST_USED);
            return Files.getLastModifiedTime(Files.exists(stamp) ? stamp : dir.resolve("complete")).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    /**
     * Keeps the {@code keep} most recently used entries prepared for this JDK home (by any build
     * of vbd, with or without a relaxed config) and removes the others, skipping any another vbd
     * holds locked. Entries of other JDK homes are left alone.
     */
    static void prune(Path jdkRoot, String jdkHome, int keep) throws IOException {
        List<Path> mine = new ArrayList<>();
        try (Stream<Path> siblings = Files.list(jdkRoot)) {
            for (Path d : (Iterable<Path>) siblings::iterator) {
                Path complete = d.resolve("complete");
                if (!Files.isDirectory(d) || !Files.isRegularFile(complete)) continue;
                if (Files.readString(complete).trim().equals(jdkHome)) mine.add(d);
            }
        }
        if (mine.size() <= keep) return;
        Map<Path, Long> when = new HashMap<>();
        for (Path d : mine) when.put(d, lastUsed(d));
        mine.sort(Comparator.comparing((Path d) -> when.get(d)).reversed().thenComparing(Comparator.naturalOrder()));
        for (Path d : mine.subList(keep, mine.size())) removeUnlessLocked(d);
    }

    /** Removes an entry under its lock; false, leaving it, if another vbd holds the lock (it is preparing it). */
    static boolean removeUnlessLocked(Path dir) throws IOException {
        Path lockFile = dir.resolveSibling(dir.getFileName() + ".lock");
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(lockFile,
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE)) {
            java.nio.channels.FileLock lock = ch.tryLock();
            if (lock == null) return false;
            try {
                Trees.delete(dir);
            } finally {
                lock.release();
            }
        }
        return true;
    }

    /**
     * The identity of a vbd build: a hash of its jar's entry names, sizes and CRC-32s, read from
     * the jar's directory. Time stamps are left out, so identical builds, rebuilt or copied,
     * share one prepared JDK.
     */
    static String jarIdentity(Path vbdJar) throws IOException {
        try (ZipFile zip = new ZipFile(vbdJar.toFile())) {
            List<ZipEntry> entries = new ArrayList<>(Collections.list(zip.entries()));
            entries.sort(Comparator.comparing(ZipEntry::getName));
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (ZipEntry e : entries) {
                md.update(e.getName().getBytes(StandardCharsets.UTF_8));
                md.update((" " + e.getSize() + " " + e.getCrc() + "\n").getBytes(StandardCharsets.UTF_8));
            }
            return "sha256:" + HexFormat.of().formatHex(md.digest());
        } catch (java.util.zip.ZipException e) {
            throw new IOException("vbd's jar " + vbdJar + " is not a readable jar: " + e.getMessage(), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String key(Jdk jdk, Path relaxed, FieldMode fields, Optimisations optimise, Path vbdJar) throws IOException {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(jdk.home().toString().getBytes(StandardCharsets.UTF_8));
            Path release = jdk.home().resolve("release");
            if (Files.isRegularFile(release)) md.update(Files.readAllBytes(release));
            Path modules = jdk.home().resolve("lib").resolve("modules");
            md.update((Files.size(modules) + ":" + Files.getLastModifiedTime(modules).toMillis()).getBytes(StandardCharsets.UTF_8));
            md.update(("rewrite-" + Conventions.REWRITE_VERSION).getBytes(StandardCharsets.UTF_8));
            md.update(jarIdentity(vbdJar).getBytes(StandardCharsets.UTF_8));
            if (relaxed != null) md.update(Files.readAllBytes(relaxed));
            md.update(("fields-" + fields.word()).getBytes(StandardCharsets.UTF_8));
            if (optimise != Optimisations.ALL) md.update(("optimise-" + optimise.word()).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(md.digest()).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String sanitize(String s) {
        return s.replaceAll("[^A-Za-z0-9._+-]", "_");
    }

    /**
     * Adds the modules that {@code --add-modules} names on the program's command line (up to the main
     * class or {@code -jar}); returns true if it asks for every system module.
     */
    static boolean addedModules(List<String> programArgs, java.util.Set<String> into) {
        for (int i = 0; i < programArgs.size(); i++) {
            String a = programArgs.get(i);
            if (a.equals("-jar") || a.equals("-m") || a.equals("--module") || (!a.startsWith("-") && i > 0
                    && !isOptionWithValue(programArgs.get(i - 1)))) {
                break;
            }
            String value = null;
            if (a.startsWith("--add-modules=")) value = a.substring("--add-modules=".length());
            else if (a.equals("--add-modules") && i + 1 < programArgs.size()) value = programArgs.get(i + 1);
            if (value == null) continue;
            for (String m : value.split(",")) {
                if (m.equals("ALL-SYSTEM") || m.equals("ALL-MODULE-PATH")) return true;
                into.add(m);
            }
        }
        return false;
    }

    private static boolean isOptionWithValue(String option) {
        return List.of("-cp", "-classpath", "--class-path", "-p", "--module-path", "--add-modules",
                "--upgrade-module-path", "--limit-modules", "--add-opens", "--add-exports", "--add-reads",
                "--patch-module", "-d", "--describe-module").contains(option);
    }

    /** The launcher of the prepared runtime image, which rewrites every class itself; null if this JDK has no image. */
    static Path imageLauncher(Path prepared) {
        Path l = prepared.resolve(JdkImage.IMAGE).resolve("bin").resolve(JdkImage.LAUNCHER);
        return Files.isExecutable(l) ? l : null;
    }

    /** The home of the prepared runtime image; null if none. */
    static Path imageHome(Path prepared) {
        return imageLauncher(prepared) == null ? null : prepared.resolve(JdkImage.IMAGE);
    }

    /** {@code -javaagent:} for the agent jar the entry keeps, with these options. */
    static String agentOption(Path prepared, String agentOptions) {
        return "-javaagent:" + prepared.resolve(PrepareJdk.AGENT_JAR) + (agentOptions.isEmpty() ? "" : "=" + agentOptions);
    }

    /** The JVM options that run this prepared JDK with vbd from the JDK's own launcher: patched modules. */
    public static List<String> jvmOptions(Path prepared, String agentOptions, List<String> programArgs)
            throws IOException {
        List<String> out = new ArrayList<>();
        // --patch-module turns class data sharing off anyway; saying so explicitly keeps the JVM quiet about it
        out.add("-Xshare:off");
        java.util.Set<String> wanted = new java.util.HashSet<>(
                Files.readAllLines(prepared.resolve("boot-modules.txt"), StandardCharsets.UTF_8));
        boolean all = addedModules(programArgs, wanted);
        for (String module : Files.readAllLines(prepared.resolve("modules.txt"), StandardCharsets.UTF_8)) {
            if (module.isBlank() || !(all || wanted.contains(module))) continue;
            Path jar = prepared.resolve("patch").resolve(module + ".jar");
            if (Files.isRegularFile(jar)) out.add("--patch-module=" + module + "=" + jar);
        }
        out.add(agentOption(prepared, agentOptions));
        return out;
    }
}
