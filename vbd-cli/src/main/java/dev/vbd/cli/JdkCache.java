package dev.vbd.cli;

import dev.vbd.core.Conventions;
import dev.vbd.core.policy.RelaxedConfig;
import dev.vbd.core.policy.RelaxedConfigException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * The rewritten JDK, prepared once per JDK build (and per relaxed config, which can reach JDK
 * code) under the cache directory: {@code $VBD_CACHE}, else {@code $XDG_CACHE_HOME/vbd}, else
 * {@code ~/.cache/vbd}, unless {@code --cache} names another. Layout: {@code patch/<module>.jar},
 * {@code modules.txt}, {@code boot-modules.txt}, {@code report.json}, {@code complete}.
 */
public final class JdkCache {
    private JdkCache() {}

    public static Path defaultRoot() {
        String env = System.getenv("VBD_CACHE");
        if (env != null && !env.isEmpty()) return Path.of(env);
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isEmpty()) return Path.of(xdg, "vbd");
        return Path.of(System.getProperty("user.home"), ".cache", "vbd");
    }

    /** The prepared directory for this JDK, preparing it first if needed (with progress on stderr). */
    public static Path prepared(Path root, Jdk jdk, Path relaxed, Path vbdJar, boolean quiet) throws UsageException, IOException {
        if (relaxed != null) {
            // Most configs name only application code: they share the JDK prepared without a config.
            Path base = prepared(root, jdk, null, vbdJar, quiet);
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
        String key = key(jdk, relaxed, vbdJar);
        Path dir = root.resolve("jdk").resolve(sanitize(jdk.version()) + "-" + key);
        if (Files.isRegularFile(dir.resolve("complete"))) return dir;
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
                if (Files.isRegularFile(dir.resolve("complete"))) return dir;
                prepare(dir, jdk, relaxed, vbdJar, quiet);
                return dir;
            } finally {
                lock.release();
            }
        }
    }

    private static void prepare(Path dir, Jdk jdk, Path relaxed, Path vbdJar, boolean quiet) throws UsageException, IOException {
        deleteTree(dir); // a run killed half-way leaves no 'complete'
        Path tmp = Files.createTempDirectory(dir.getParent(), "preparing-");
        try {
            if (!quiet) {
                System.err.println("vbd: preparing " + jdk.vendor() + " JDK " + jdk.version() + " (" + jdk.home()
                        + ") for sequential consistency; cached in " + dir);
            }
            List<String> cmd = new ArrayList<>(List.of(jdk.launcher().toString(), "-Xshare:off",
                    "-cp", vbdJar.toString(), PrepareJdk.class.getName(), tmp.toString()));
            if (relaxed != null) cmd.add(relaxed.toString());
            ProcessBuilder pb = new ProcessBuilder(cmd);
            pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
            pb.redirectError(quiet ? ProcessBuilder.Redirect.DISCARD : ProcessBuilder.Redirect.INHERIT);
            int rc;
            try {
                rc = pb.start().waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while preparing the JDK");
            }
            if (rc != 0) throw new UsageException("preparing " + jdk.home() + " failed (exit status " + rc + ")");
            Files.writeString(tmp.resolve("vbd-jar.txt"), jarIdentity(vbdJar) + "\n");
            Files.writeString(tmp.resolve("complete"), jdk.home() + "\n");
            Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
            pruneStale(dir, jdk, vbdJar);
        } finally {
            deleteTree(tmp);
        }
    }

    private static String jarIdentity(Path vbdJar) throws IOException {
        return Files.size(vbdJar) + ":" + Files.getLastModifiedTime(vbdJar).toMillis();
    }

    /** Removes this JDK's preparations made by other builds of vbd: nothing will use them again. */
    private static void pruneStale(Path keep, Jdk jdk, Path vbdJar) throws IOException {
        String current = jarIdentity(vbdJar);
        try (Stream<Path> siblings = Files.list(keep.getParent())) {
            for (Path d : (Iterable<Path>) siblings::iterator) {
                if (d.equals(keep) || !Files.isDirectory(d)) continue;
                Path complete = d.resolve("complete");
                Path jarInfo = d.resolve("vbd-jar.txt");
                if (!Files.isRegularFile(complete) || !Files.readString(complete).trim().equals(jdk.home().toString())) continue;
                if (Files.isRegularFile(jarInfo) && Files.readString(jarInfo).trim().equals(current)) continue;
                Path lockFile = d.getParent().resolve(d.getFileName() + ".lock");
                try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(lockFile,
                        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE)) {
                    java.nio.channels.FileLock lock = ch.tryLock();
                    if (lock == null) continue; // another vbd is working on it; leave it
                    try {
                        deleteTree(d);
                    } finally {
                        lock.release();
                    }
                }
            }
        }
    }

    static String key(Jdk jdk, Path relaxed, Path vbdJar) throws IOException {
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
            return HexFormat.of().formatHex(md.digest()).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String sanitize(String s) {
        return s.replaceAll("[^A-Za-z0-9._+-]", "_");
    }

    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) return;
        // Another vbd may be deleting the same stale tree: entries vanishing mid-walk are fine.
        try (Stream<Path> walk = Files.walk(p)) {
            for (Path q : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(q);
            }
        } catch (java.nio.file.NoSuchFileException | java.io.UncheckedIOException e) {
            if (Files.exists(p)) throw e;
        }
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

    /** The JVM options that run this prepared JDK with vbd. */
    public static List<String> jvmOptions(Path prepared, Path vbdJar, String agentOptions, List<String> programArgs)
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
        out.add("-javaagent:" + vbdJar + (agentOptions.isEmpty() ? "" : "=" + agentOptions));
        return out;
    }
}
