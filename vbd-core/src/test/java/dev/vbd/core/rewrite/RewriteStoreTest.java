package dev.vbd.core.rewrite;

import dev.vbd.core.policy.Policy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.objectweb.asm.Opcodes.ACC_FINAL;
import static org.objectweb.asm.Opcodes.ACC_PRIVATE;
import static org.objectweb.asm.Opcodes.ACC_VOLATILE;

/**
 * Rewrites kept between runs: each test rewrites in one "run" (a rewriter over one set of
 * classes), then in another over a changed set, with the same store, as a program started again
 * after a library changed. A kept rewrite must stand in only where rewriting anew would give the
 * same class.
 */
class RewriteStoreTest {
    @TempDir
    Path dir;

    private RewriteStore store() {
        return new RewriteStore(dir.toFile());
    }

    /** One run: rewrites one class with the store, then finishes the run's pack as a JVM does at exit. */
    private static RewriteResult rewrite(RewriteStore store, Map<String, byte[]> classes, String name) {
        RewriteResult r = rewriteOnly(store, classes, name);
        store.close();
        return r;
    }

    /** The same, leaving the pack unfinished, as a JVM still running or killed leaves it. */
    private static RewriteResult rewriteOnly(RewriteStore store, Map<String, byte[]> classes, String name) {
        RewriteResult r = new ClassRewriter(Policy.defaults(), Bytecode.sourceOf(classes)).store(store).rewrite(classes.get(name));
        assertEquals(RewriteResult.Status.REWRITTEN, r.status());
        Bytecode.verify(r.bytes());
        return r;
    }

    private static Map<String, byte[]> with(Map<String, byte[]> classes, Map<String, byte[]> changed) {
        Map<String, byte[]> all = new HashMap<>(classes);
        all.putAll(changed);
        return all;
    }

    private static final String SUB = """
            package st;
            public class Sub extends Base {
                private final int x;
                public Sub() { super(); x = 1; }
                int x() { return x; }
            }
            """;
    private static final String SAFE_BASE = """
            package st;
            public class Base { public Base() {} }
            """;
    private static final String LEAKING_BASE = """
            package st;
            public class Base { public Base() { init(); } void init() {} }
            """;

    @Test
    void aSecondRunTakesTheKeptRewriteAndGetsTheSameClass() {
        Map<String, byte[]> c = Bytecode.compile(SAFE_BASE, SUB, """
                package st;
                public class Flags { int n; long[] a = new long[2]; long first() { return a[0] + n; } }
                """);
        RewriteStore store = store();
        RewriteResult first = rewrite(store, c, "st/Flags");
        assertEquals(1, store.stored.get());
        assertEquals(0, store.hits.get());

        RewriteStore again = store();
        RewriteResult second = rewrite(again, c, "st/Flags");
        assertEquals(1, again.hits.get(), "the second run takes the kept rewrite");
        assertEquals(0, again.stored.get());
        assertArrayEquals(first.bytes(), second.bytes());
        assertEquals(first.className(), second.className());
        assertEquals(List.of("n", "a"), second.flipped());
        assertEquals(first.unfinal(), second.unfinal());
        assertEquals(first.relaxedMethods(), second.relaxedMethods());
    }

    @Test
    void aSuperclassThatNowLeaksThisIsNotAnsweredByTheKeptRewrite() {
        Map<String, byte[]> safe = Bytecode.compile(SAFE_BASE, SUB);
        Map<String, byte[]> leaking = with(safe, Bytecode.compile(LEAKING_BASE));
        RewriteStore store = store();
        RewriteResult before = rewrite(store, safe, "st/Sub");
        assertEquals(ACC_PRIVATE | ACC_FINAL, Bytecode.access(before.bytes(), "x"), "a leak-free super keeps x final");

        // the same bytes of Sub; only its superclass changed
        RewriteStore again = store();
        RewriteResult after = rewrite(again, leaking, "st/Sub");
        assertEquals(0, again.hits.get());
        assertEquals(ACC_PRIVATE | ACC_VOLATILE, Bytecode.access(after.bytes(), "x"),
                "a super constructor that may leak this makes x's store unsafe, as without a store");
        assertEquals(List.of("x"), after.unfinal());
        // and back: the superclass as it was takes the first rewrite again
        RewriteStore third = store();
        assertArrayEquals(before.bytes(), rewrite(third, safe, "st/Sub").bytes());
    }

    @Test
    void aPackageThatIsNowRelaxedIsNotAnsweredByTheKeptRewrite() {
        Map<String, byte[]> plain = Bytecode.compile("""
                package sp;
                public class Counter { int count; }
                """);
        Map<String, byte[]> relaxed = with(plain, Bytecode.compile("""
                @dev.vbd.Relaxed
                package sp;
                """));
        RewriteStore store = store();
        assertEquals(ACC_VOLATILE, Bytecode.access(rewrite(store, plain, "sp/Counter").bytes(), "count"));
        RewriteStore again = store();
        assertEquals(0, Bytecode.access(rewrite(again, relaxed, "sp/Counter").bytes(), "count"),
                "a field of a relaxed package stays plain");
        assertEquals(0, again.hits.get());
    }

    @Test
    void relaxedCodeIsNotAnsweredByTheKeptRewriteWhenTheFieldItReadsChanged() {
        String reader = """
                package sr;
                public class Reader { @dev.vbd.Relaxed int read(Cell c) { return c.v; } }
                """;
        Map<String, byte[]> plainCell = Bytecode.compile(reader, "package sr;\npublic class Cell { int v; }");
        Map<String, byte[]> declaredVolatile = with(plainCell, Bytecode.compile("package sr;\npublic class Cell { volatile int v; }"));
        RewriteStore store = store();
        List<String> relaxedRead = Bytecode.of(rewrite(store, plainCell, "sr/Reader").bytes(), "read");
        assertTrue(relaxedRead.stream().anyMatch(i -> i.startsWith("INVOKEDYNAMIC v")),
                "relaxed code reads a field vbd made volatile plainly: " + relaxedRead);

        RewriteStore again = store();
        List<String> strictRead = Bytecode.of(rewrite(again, declaredVolatile, "sr/Reader").bytes(), "read");
        assertTrue(strictRead.contains("GETFIELD sr/Cell.v : I"),
                "a field the programmer declared volatile stays volatile, relaxed or not: " + strictRead);
        assertEquals(0, again.hits.get());
    }

    @Test
    void aDamagedKeptRewriteIsRewrittenAnew() throws IOException {
        Map<String, byte[]> c = Bytecode.compile("package sd;\npublic class Box { Object item; }");
        RewriteResult first = rewrite(store(), c, "sd/Box");
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.toList();
        }
        assertEquals(1, files.size());
        byte[] kept = Files.readAllBytes(files.get(0));
        kept[kept.length / 2] ^= 0x20; // inside the entry: the pack's index still reads
        Files.write(files.get(0), kept);

        RewriteStore again = store();
        assertArrayEquals(first.bytes(), rewrite(again, c, "sd/Box").bytes());
        assertEquals(0, again.hits.get());
        assertEquals(1, again.stored.get(), "the damaged file is replaced");
        RewriteStore third = store();
        rewrite(third, c, "sd/Box");
        assertEquals(1, third.hits.get());
    }

    @Test
    void aPackItsJvmNeverFinishedIsReadEntryByEntry() throws IOException {
        Map<String, byte[]> c = Bytecode.compile("package su;\npublic class Box { Object item; }", "package su;\npublic class Bag { Object[] items; }");
        RewriteStore killed = store();
        RewriteResult box = rewriteOnly(killed, c, "su/Box");
        rewriteOnly(killed, c, "su/Bag");
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.toList();
        }
        assertEquals(1, files.size());
        // the last entry torn half-way, as a JVM killed while writing it leaves it
        Path pack = files.get(0);
        byte[] all = Files.readAllBytes(pack);
        Files.write(pack, java.util.Arrays.copyOf(all, all.length - 20));

        RewriteStore again = store();
        assertArrayEquals(box.bytes(), rewriteOnly(again, c, "su/Box").bytes());
        assertEquals(1, again.hits.get(), "the whole entry before the torn one is read");
        rewriteOnly(again, c, "su/Bag");
        assertEquals(1, again.hits.get(), "the torn entry is a miss");
        assertEquals(1, again.stored.get());
    }

    @Test
    void manyPacksAreMergedIntoOne() throws IOException {
        RewriteStore last = null;
        List<Map<String, byte[]>> programs = new java.util.ArrayList<>();
        for (int i = 0; i <= RewriteStore.MAX_PACKS; i++) {
            Map<String, byte[]> c = Bytecode.compile("package sm;\npublic class Box" + i + " { Object item; }");
            programs.add(c);
            last = store();
            rewrite(last, c, "sm/Box" + i);
        }
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(1, s.count(), "the run that found too many packs merged them");
        }
        for (int i = 0; i <= RewriteStore.MAX_PACKS; i++) {
            RewriteStore again = store();
            rewrite(again, programs.get(i), "sm/Box" + i);
            assertEquals(1, again.hits.get(), "Box" + i + " kept through the merge");
        }
    }

    @Test
    void aStoreThatCannotBeWrittenOnlyKeepsNothing() throws IOException {
        File notADirectory = dir.resolve("file").toFile();
        Files.writeString(notADirectory.toPath(), "x");
        RewriteStore store = new RewriteStore(new File(notADirectory, "store"));
        Map<String, byte[]> c = Bytecode.compile("package sw;\npublic class Box { Object item; }");
        byte[] expected = Bytecode.rewritten(c, "sw/Box");
        assertArrayEquals(expected, rewrite(store, c, "sw/Box").bytes());
        assertArrayEquals(expected, rewrite(store, c, "sw/Box").bytes());
        assertEquals(0, store.stored.get());
    }
}
