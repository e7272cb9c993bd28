package dev.vbd.cli;

import dev.vbd.core.rewrite.FieldMode;
import dev.vbd.core.rewrite.Optimisations;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The prepared-JDK cache: what identifies a build, and which entries survive. */
class JdkCacheTest {
    @TempDir
    Path tmp;

    private static final Map<String, String> CONTENT = Map.of("a/A.class", "alpha", "b/B.class", "beta");

    private Path jar(String name, Map<String, String> entries, long entryTime, long fileTime) throws IOException {
        Path p = tmp.resolve(name);
        try (OutputStream out = Files.newOutputStream(p); ZipOutputStream zip = new ZipOutputStream(out)) {
            for (String e : new TreeSet<>(entries.keySet())) {
                ZipEntry z = new ZipEntry(e);
                z.setTime(entryTime);
                zip.putNextEntry(z);
                zip.write(entries.get(e).getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
        }
        Files.setLastModifiedTime(p, FileTime.fromMillis(fileTime));
        return p;
    }

    private Jdk fakeJdk(String name) throws IOException {
        Path home = tmp.resolve(name);
        Files.createDirectories(home.resolve("lib"));
        Files.createDirectories(home.resolve("bin"));
        Files.writeString(home.resolve("release"), "JAVA_VERSION=\"17.0.99\"\n");
        Files.writeString(home.resolve("lib/modules"), "image");
        return new Jdk(home.resolve("bin/java"), home, "17.0.99", 17, "Test");
    }

    /** A finished entry, as a preparation leaves it, last used at {@code usedAt}. */
    private Path entry(Path jdkRoot, String name, Jdk jdk, long usedAt) throws IOException {
        Path d = jdkRoot.resolve(name);
        Files.createDirectories(d.resolve("patch"));
        Files.writeString(d.resolve("complete"), jdk.home() + "\n");
        Files.writeString(d.resolve("last-used"), "");
        Files.setLastModifiedTime(d.resolve("last-used"), FileTime.fromMillis(usedAt));
        return d;
    }

    private static Set<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(Files::isDirectory).map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    @Test
    void identicalBuildsShareOneEntryWhateverTheirTimeStamps() throws IOException {
        Jdk jdk = fakeJdk("jdk");
        Path one = jar("one.jar", CONTENT, 1_000_000_000_000L, 1_000_000_000_000L);
        Path same = jar("same.jar", CONTENT, 1_700_000_000_000L, 1_700_000_000_000L);
        assertEquals(JdkCache.jarIdentity(one), JdkCache.jarIdentity(same));
        assertEquals(JdkCache.key(jdk, null, FieldMode.VOLATILE, Optimisations.ALL, one), JdkCache.key(jdk, null, FieldMode.VOLATILE, Optimisations.ALL, same));
    }

    @Test
    void differentBuildsGetDifferentEntries() throws IOException {
        Jdk jdk = fakeJdk("jdk");
        Path one = jar("one.jar", CONTENT, 0, 0);
        Path changed = jar("changed.jar", Map.of("a/A.class", "alpha", "b/B.class", "beta2"), 0, 0);
        Path renamed = jar("renamed.jar", Map.of("a/A.class", "alpha", "b/C.class", "beta"), 0, 0);
        assertNotEquals(JdkCache.key(jdk, null, FieldMode.VOLATILE, Optimisations.ALL, one), JdkCache.key(jdk, null, FieldMode.VOLATILE, Optimisations.ALL, changed));
        assertNotEquals(JdkCache.key(jdk, null, FieldMode.VOLATILE, Optimisations.ALL, one), JdkCache.key(jdk, null, FieldMode.VOLATILE, Optimisations.ALL, renamed));
    }

    @Test
    void eachChoiceOfOptimisationsIsAnEntryOfItsOwn() throws IOException {
        Jdk jdk = fakeJdk("jdk");
        Path one = jar("one.jar", CONTENT, 0, 0);
        java.util.Set<String> keys = new java.util.HashSet<>();
        for (Optimisations o : Optimisations.values()) keys.add(JdkCache.key(jdk, null, FieldMode.FENCED, o, one));
        assertEquals(Optimisations.values().length, keys.size());
    }

    @Test
    void aJdkWithFencedFieldsIsAnEntryOfItsOwn() throws IOException {
        Jdk jdk = fakeJdk("jdk");
        Path one = jar("one.jar", CONTENT, 0, 0);
        assertNotEquals(JdkCache.key(jdk, null, FieldMode.VOLATILE, Optimisations.ALL, one), JdkCache.key(jdk, null, FieldMode.FENCED, Optimisations.ALL, one));
        assertThrows(IllegalArgumentException.class,
                () -> JdkCache.prepared(tmp.resolve("cache"), jdk, null, FieldMode.SPECULATIVE, Optimisations.ALL, one, true));
    }

    @Test
    void twoBuildsKeepTheirEntriesSideBySide() throws IOException {
        Jdk jdk = fakeJdk("jdk");
        Path root = tmp.resolve("cache/jdk");
        entry(root, "17.0.99-aaaaaaaaaaaa", jdk, 1_000_000L);
        Path b = entry(root, "17.0.99-bbbbbbbbbbbb", jdk, 2_000_000L);
        JdkCache.used(b);
        JdkCache.prune(root, jdk.home().toString(), JdkCache.DEFAULT_KEEP);
        assertEquals(Set.of("17.0.99-aaaaaaaaaaaa", "17.0.99-bbbbbbbbbbbb"), names(root));
    }

    @Test
    void atMostKeepEntriesPerJdkRemainTheLeastRecentlyUsedGoFirst() throws IOException {
        Jdk jdk = fakeJdk("jdk");
        Jdk other = fakeJdk("other-jdk");
        Path root = tmp.resolve("cache/jdk");
        for (int i = 0; i < 6; i++) entry(root, "17.0.99-build" + i, jdk, 1_000_000L * (i + 1));
        entry(root, "17.0.99-other", other, 1L);
        // the oldest by preparation, but used just now
        JdkCache.used(root.resolve("17.0.99-build0"));
        JdkCache.prune(root, jdk.home().toString(), 4);
        assertEquals(Set.of("17.0.99-build0", "17.0.99-build3", "17.0.99-build4", "17.0.99-build5", "17.0.99-other"),
                names(root), "another JDK's entry is not counted against this one's bound");
    }

    @Test
    void keepComesFromTheEnvironmentAndBadValuesAreNamed() throws UsageException {
        assertEquals(JdkCache.DEFAULT_KEEP, JdkCache.keep(null));
        assertEquals(7, JdkCache.keep("7"));
        UsageException e = assertThrows(UsageException.class, () -> JdkCache.keep("many"));
        assertTrue(e.getMessage().contains("VBD_CACHE_KEEP='many'"), e.getMessage());
        assertThrows(UsageException.class, () -> JdkCache.keep("0"));
    }

    private Path entry(Path cache, String name, String jarIdentity, boolean complete) throws IOException {
        Path d = cache.resolve("jdk").resolve(name);
        Files.createDirectories(d.resolve("patch"));
        Files.writeString(d.resolve("patch").resolve("java.base.jar"), "x".repeat(2048));
        if (jarIdentity != null) Files.writeString(d.resolve("vbd-jar.txt"), jarIdentity + "\n");
        if (complete) Files.writeString(d.resolve("complete"), "/some/jdk\n");
        return d;
    }

    @Test
    void cacheListShowsEachEntryAndWhoMadeIt() throws IOException {
        Path vbd = jar("vbd.jar", CONTENT, 0, 0);
        Path cache = tmp.resolve("cache");
        entry(cache, "17-aaa", JdkCache.jarIdentity(vbd), true);
        entry(cache, "17-bbb", "sha256:other", true);
        entry(cache, "preparing-123", null, false);
        Map<String, String> by = CacheCommand.entries(cache, vbd).stream().collect(Collectors.toMap(
                e -> e.dir().getFileName().toString(),
                e -> (e.complete() ? (e.thisBuild() ? "this" : "other") : "incomplete") + " " + e.jdkHome() + " " + (e.bytes() >= 2048)));
        assertEquals(Map.of("17-aaa", "this /some/jdk true", "17-bbb", "other /some/jdk true", "preparing-123", "incomplete ? true"), by);
    }

    @Test
    void cacheCleanKeepsWhatThisBuildUsesUnlessAll() throws IOException {
        Path vbd = jar("vbd.jar", CONTENT, 0, 0);
        Path cache = tmp.resolve("cache");
        Path mine = entry(cache, "17-aaa", JdkCache.jarIdentity(vbd), true);
        Path other = entry(cache, "17-bbb", "sha256:other", true);
        Path half = entry(cache, "17-ccc", JdkCache.jarIdentity(vbd), false);
        Path working = entry(cache, "preparing-123", null, false);
        Files.writeString(cache.resolve("jdk").resolve("17-gone.lock"), "");
        Files.writeString(cache.resolve("jdk").resolve("preparing-9.log"), "failed");
        CacheCommand.clean(cache, vbd, false);
        assertTrue(Files.isDirectory(mine));
        assertTrue(!Files.exists(other) && !Files.exists(half), "another build's and a half-made entry go");
        assertTrue(Files.isDirectory(working), "a preparation touched within the hour may be at work");
        try (Stream<Path> s = Files.list(cache.resolve("jdk"))) {
            assertEquals(Set.of("17-aaa", "preparing-123"), s.map(p -> p.getFileName().toString()).collect(Collectors.toSet()));
        }
        CacheCommand.clean(cache, vbd, true);
        assertTrue(!Files.exists(mine), "--all removes every complete entry");
    }
}
