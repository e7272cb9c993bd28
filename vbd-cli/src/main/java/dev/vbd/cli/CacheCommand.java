package dev.vbd.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * {@code vbd cache list} and {@code vbd cache clean}: the prepared JDKs under the cache, which
 * builds of vbd made them, and removing the ones no longer wanted. An entry another vbd holds
 * locked (it is preparing it) is left alone.
 */
final class CacheCommand {
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC);

    private CacheCommand() {}

    /** One directory under {@code <cache>/jdk}: complete or left half-way. */
    record Entry(Path dir, String jdkHome, boolean complete, boolean thisBuild, long bytes, long lastUsed) {}

    static int list(Path cache, Path vbdJar) throws IOException {
        List<Entry> entries = entries(cache, vbdJar);
        if (entries.isEmpty()) {
            System.out.println("no prepared JDKs in " + cache);
            return 0;
        }
        System.out.printf(Locale.ROOT, "%-26s %9s  %-16s  %-10s  %s%n", "prepared JDK", "size", "last used (UTC)", "made by", "JDK home");
        long total = 0;
        for (Entry e : entries) {
            total += e.bytes();
            String by = !e.complete() ? "incomplete" : e.thisBuild() ? "this vbd" : "other vbd";
            System.out.printf(Locale.ROOT, "%-26s %9s  %-16s  %-10s  %s%n", e.dir().getFileName(), size(e.bytes()),
                    WHEN.format(Instant.ofEpochMilli(e.lastUsed())), by, e.jdkHome());
        }
        System.out.println(entries.size() + " prepared JDKs, " + size(total) + " in " + cache.resolve("jdk"));
        return 0;
    }

    static int clean(Path cache, Path vbdJar, boolean all) throws IOException {
        int removed = 0, kept = 0, busy = 0;
        long freed = 0;
        for (Entry e : entries(cache, vbdJar)) {
            if (!all && e.complete() && e.thisBuild()) {
                kept++;
                continue;
            }
            // a preparation under way writes here under the final entry's lock, which names no
            // temporary directory: one touched within the hour may still be at work
            if (e.dir().getFileName().toString().startsWith("preparing-")
                    && System.currentTimeMillis() - e.lastUsed() < 3_600_000L) {
                busy++;
                continue;
            }
            if (remove(e.dir())) {
                removed++;
                freed += e.bytes();
            } else {
                busy++;
            }
        }
        Path root = cache.resolve("jdk");
        if (Files.isDirectory(root)) {
            // logs of failed preparations, and locks whose entry is gone
            try (Stream<Path> s = Files.list(root)) {
                for (Path p : (Iterable<Path>) s::iterator) {
                    String n = p.getFileName().toString();
                    if (n.endsWith(".log") || (n.endsWith(".lock") && !Files.exists(root.resolve(n.substring(0, n.length() - 5))))) {
                        Files.deleteIfExists(p);
                    }
                }
            }
        }
        System.out.println("removed " + removed + " prepared JDKs (" + size(freed) + ")"
                + (kept > 0 ? ", kept " + kept + " this vbd uses (--all removes them too)" : "")
                + (busy > 0 ? ", left " + busy + " another vbd is preparing" : ""));
        return 0;
    }

    private static boolean remove(Path dir) throws IOException {
        if (!JdkCache.removeUnlessLocked(dir)) return false;
        Files.deleteIfExists(dir.resolveSibling(dir.getFileName() + ".lock"));
        return true;
    }

    static List<Entry> entries(Path cache, Path vbdJar) throws IOException {
        Path root = cache.resolve("jdk");
        List<Entry> out = new ArrayList<>();
        if (!Files.isDirectory(root)) return out;
        String identity = Files.isRegularFile(vbdJar) ? JdkCache.jarIdentity(vbdJar) : "";
        try (Stream<Path> s = Files.list(root)) {
            for (Path d : (Iterable<Path>) s.sorted()::iterator) {
                if (!Files.isDirectory(d)) continue;
                Path complete = d.resolve("complete");
                boolean done = Files.isRegularFile(complete);
                String home = done ? Files.readString(complete, StandardCharsets.UTF_8).trim() : "?";
                Path jar = d.resolve("vbd-jar.txt");
                boolean mine = Files.isRegularFile(jar) && Files.readString(jar, StandardCharsets.UTF_8).trim().equals(identity);
                long when = done ? JdkCache.lastUsed(d) : Files.getLastModifiedTime(d).toMillis();
                out.add(new Entry(d, home, done, mine, bytes(d), when));
            }
        }
        return out;
    }

    private static long bytes(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    private static String size(long bytes) {
        if (bytes >= 1L << 30) return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
        if (bytes >= 1L << 20) return String.format(Locale.ROOT, "%.0f MiB", bytes / (double) (1L << 20));
        return String.format(Locale.ROOT, "%.0f KiB", bytes / 1024.0);
    }
}
