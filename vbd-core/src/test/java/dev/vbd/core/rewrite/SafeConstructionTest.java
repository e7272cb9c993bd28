package dev.vbd.core.rewrite;

import dev.vbd.core.Conventions;
import dev.vbd.core.analysis.ClassFacts;
import dev.vbd.core.policy.Policy;
import dev.vbd.core.verify.ClassEntry;
import dev.vbd.core.verify.Finding;
import dev.vbd.core.verify.VerifyReport;
import dev.vbd.core.verify.Verifier;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Opcodes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static dev.vbd.core.rewrite.Bytecode.ACQUIRE;
import static dev.vbd.core.rewrite.Bytecode.RELEASE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Safe construction: each constructor gets a release fence before every point where its object may
 * become visible after one of its stores (each return, each leak of {@code this}), and nothing else
 * of the class changes; the verifier in that mode finds each such point without its fence.
 */
class SafeConstructionTest {
    private static final Map<String, byte[]> CLASSES = Bytecode.compile("""
            package s;
            public class Point {
                int x;
                long y;
                public Point(int x, long y) { this.x = x; this.y = y; }
                int sum() { return x + (int) y; }
                void move(int dx) { x = x + dx; }
            }
            """, """
            package s;
            public class Leaky {
                static Leaky last;
                int before;
                int after;
                public Leaky() { before = 1; last = this; after = 3; }
            }
            """, """
            package s;
            public class Empty {
                public Empty() { }
            }
            """, """
            package s;
            public class Early {
                int v;
                public Early(boolean skip) {
                    if (skip) return;
                    v = 1;
                }
            }
            """, """
            package s;
            public class Filled {
                int[] values;
                public Filled() {
                    int[] t = new int[2];
                    t[0] = 1;
                    values = t;
                }
            }
            """, """
            package s;
            public class Immutable {
                final int a;
                int b;
                public Immutable(int a, int b) { this.b = b; this.a = a; }
                public Immutable() { this(1, 2); b = 3; }
            }
            """, """
            package s;
            @dev.vbd.Relaxed("test")
            public class Fast {
                int v;
                public Fast() { v = 1; }
            }
            """);

    /** The release fence as {@link Bytecode#of} prints it: inline on x86-64, a call elsewhere. */
    private static final String FENCE = Conventions.INLINE_FENCES ? ACQUIRE : RELEASE;

    private static ClassRewriter rewriter() {
        return new ClassRewriter(Policy.defaults(), Bytecode.sourceOf(CLASSES)).fields(FieldMode.SAFE_CONSTRUCTION);
    }

    private static byte[] rewritten(String name) {
        return Bytecode.rewritten(rewriter(), CLASSES, name);
    }

    @Test
    void aConstructorOrdersItsStoresBeforeItReturnsAndNothingElseChanges() {
        byte[] point = rewritten("s/Point");
        assertEquals(List.of(
                "ALOAD 0", "INVOKESPECIAL java/lang/Object.<init> ()V",
                "ALOAD 0", "ILOAD 1", "PUTFIELD s/Point.x : I",
                "ALOAD 0", "LLOAD 2", "PUTFIELD s/Point.y : J",
                FENCE, "RETURN"),
                Bytecode.of(point, "<init>"));
        byte[] original = CLASSES.get("s/Point");
        assertEquals(Bytecode.of(original, "sum"), Bytecode.of(point, "sum"));
        assertEquals(Bytecode.of(original, "move"), Bytecode.of(point, "move"));
        assertEquals(0, Bytecode.access(point, "x") & Opcodes.ACC_VOLATILE);
        assertEquals(0, Bytecode.access(point, "y") & Opcodes.ACC_VOLATILE);
        ClassFacts.Marker marker = ClassFacts.read(point).marker;
        assertTrue(marker.construction);
        assertTrue(marker.flipped.isEmpty());
    }

    @Test
    void aLeakOfThisGetsTheFenceForTheStoresBeforeIt() {
        assertEquals(List.of(
                "ALOAD 0", "INVOKESPECIAL java/lang/Object.<init> ()V",
                "ALOAD 0", "ICONST_1", "PUTFIELD s/Leaky.before : I",
                "ALOAD 0", FENCE, "PUTSTATIC s/Leaky.last : Ls/Leaky;",
                "ALOAD 0", "ICONST_3", "PUTFIELD s/Leaky.after : I",
                FENCE, "RETURN"),
                Bytecode.of(rewritten("s/Leaky"), "<init>"));
    }

    @Test
    void aPathWithoutAStoreNeedsNoFence() {
        byte[] empty = rewritten("s/Empty");
        assertEquals(Bytecode.of(CLASSES.get("s/Empty"), "<init>"), Bytecode.of(empty, "<init>"));
        List<String> early = Bytecode.of(rewritten("s/Early"), "<init>");
        assertEquals(1, early.stream().filter(FENCE::equals).count(), early.toString());
        // the early return comes before any store: no fence before the first RETURN
        assertEquals("RETURN", early.get(early.indexOf("ILOAD 1") + 2), early.toString());
    }

    @Test
    void storesIntoAnArrayTheConstructorMadeAreOrderedToo() {
        List<String> filled = Bytecode.of(rewritten("s/Filled"), "<init>");
        assertEquals(List.of("PUTFIELD s/Filled.values : [I", FENCE, "RETURN"),
                filled.subList(filled.size() - 3, filled.size()));
        assertTrue(filled.contains("IASTORE") && !filled.subList(0, filled.indexOf("IASTORE")).contains(FENCE), filled.toString());
    }

    /**
     * The JVM fences the exit of a constructor that writes a final field, in every tier, and that
     * fence orders the plain stores too: a return every path to which writes one needs no fence of
     * vbd's. A constructor that only delegates to one that does is not such a constructor.
     */
    @Test
    void aConstructorThatWritesAFinalFieldOnEveryPathIsFencedByTheJvm() {
        byte[] immutable = rewritten("s/Immutable");
        assertEquals(Bytecode.of(CLASSES.get("s/Immutable"), "<init>(II)V"), Bytecode.of(immutable, "<init>(II)V"));
        List<String> delegating = Bytecode.of(immutable, "<init>()V");
        assertEquals(List.of("PUTFIELD s/Immutable.b : I", FENCE, "RETURN"),
                delegating.subList(delegating.size() - 3, delegating.size()));
    }

    @Test
    void aRelaxedConstructorIsLeftAsCompiled() {
        byte[] fast = rewritten("s/Fast");
        assertEquals(Bytecode.of(CLASSES.get("s/Fast"), "<init>"), Bytecode.of(fast, "<init>"));
        assertEquals(List.of("<init>()V"), ClassFacts.read(fast).marker.relaxed);
    }

    @Test
    void theVerifierFindsEachUnfencedPointAndPassesTheRewrite() {
        VerifyReport before = verify(CLASSES.values().toArray(byte[][]::new));
        assertEquals("safe-construction", before.mode());
        // Point, Filled: their return; Leaky: the leak and the return; Early: one return; Immutable: the
        // delegating constructor's return; Empty none; Fast relaxed
        assertEquals(new TreeSet<>(List.of("s/Early", "s/Filled", "s/Immutable", "s/Leaky", "s/Point")),
                new TreeSet<>(before.findings().stream().map(Finding::className).toList()));
        assertEquals(6, before.nonSc(), before.findings().toString());
        assertTrue(before.findings().stream().allMatch(f -> f.kind() == Finding.Kind.CONSTRUCTOR));
        assertEquals(CLASSES.size(), before.uncovered());

        List<byte[]> after = new ArrayList<>();
        for (String name : CLASSES.keySet()) after.add(rewritten(name));
        VerifyReport ok = verify(after.toArray(byte[][]::new));
        assertEquals(0, ok.nonSc(), ok.findings().toString());
        assertEquals(CLASSES.size(), ok.rewritten());
        assertEquals(6, ok.constructionPoints());
        assertEquals(1, ok.relaxedConstructors());

        // the SC rewrite's marker is not safe construction's: its classes are uncovered here
        byte[] sc = Bytecode.rewritten(CLASSES, "s/Point");
        VerifyReport other = verify(sc);
        assertEquals(1, other.uncovered());
    }

    @Test
    void rewritingTwiceChangesNothing() {
        byte[] once = rewritten("s/Leaky");
        ClassRewriter jdk = new ClassRewriter(Policy.defaults(), Bytecode.sourceOf(CLASSES), true).fields(FieldMode.SAFE_CONSTRUCTION);
        assertEquals(RewriteResult.Status.ALREADY_REWRITTEN, jdk.rewrite(once).status());
        assertArrayEquals(once, rewritten("s/Leaky"));
    }

    private static VerifyReport verify(byte[]... classes) {
        List<ClassEntry> entries = new ArrayList<>();
        for (byte[] b : classes) entries.add(ClassEntry.of("app", b));
        return new Verifier(Policy.defaults()).safeConstruction(true).lookup((loader, n) -> CLASSES.get(n)).verify(entries);
    }
}
