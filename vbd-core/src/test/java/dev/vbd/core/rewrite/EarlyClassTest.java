package dev.vbd.core.rewrite;

import dev.vbd.core.analysis.ClassFacts;
import dev.vbd.core.policy.Policy;
import dev.vbd.core.verify.ClassEntry;
import dev.vbd.core.verify.Finding;
import dev.vbd.core.verify.Verifier;
import dev.vbd.core.verify.VerifyReport;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Opcodes;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.vbd.core.rewrite.Bytecode.ACQUIRE;
import static dev.vbd.core.rewrite.Bytecode.FULL;
import static dev.vbd.core.rewrite.Bytecode.RELEASE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Classes defined before the agent started: their bodies are fenced though their fields stay
 * plain, later classes fence their accesses to those fields, and the verifier accepts exactly
 * the fenced accesses.
 */
class EarlyClassTest {
    private static final Policy POLICY = Policy.defaults();
    private static final Map<String, byte[]> CLASSES = Bytecode.compile("""
            package early;
            public class Loader {
                static int created;
                int loads;
                final int[] cells = new int[2];
                void load() { loads++; created = loads; cells[0] = cells[1]; }
            }
            """, """
            package early;
            public class Later {
                static int peek(Loader l) { return l.loads; }
                static void poke() { Loader.created = 7; }
            }
            """);
    private static final byte[] LOADER = CLASSES.get("early/Loader");

    private static final FieldOracle PLAIN = (owner, name, desc) -> Set.of("created I", "loads I").contains(name + ' ' + desc);

    private static byte[] fencedLoader() {
        ClassFacts facts = ClassFacts.read(LOADER);
        return new EarlyClassRewriter(POLICY).rewriteBodies(LOADER, facts, PLAIN);
    }

    @Test
    void theFieldsToFenceAreThoseTheRewriteWouldHaveMadeVolatile() {
        ClassRewriter rw = new ClassRewriter(POLICY, Bytecode.sourceOf(CLASSES));
        assertEquals(List.of("created I", "loads I"), EarlyClassRewriter.fieldsToFence(rw, ClassFacts.read(LOADER), LOADER));
    }

    @Test
    void bodiesGetFieldAndArrayFencesWhileFieldsKeepTheirModifiers() {
        byte[] after = fencedLoader();
        Bytecode.verify(after);
        assertEquals(List.of(
                "ALOAD 0", "DUP", "GETFIELD early/Loader.loads : I", ACQUIRE, "ICONST_1", "IADD",
                RELEASE, "PUTFIELD early/Loader.loads : I", FULL,
                "ALOAD 0", "GETFIELD early/Loader.loads : I", ACQUIRE,
                RELEASE, "PUTSTATIC early/Loader.created : I", FULL,
                "ALOAD 0", "GETFIELD early/Loader.cells : [I", "ICONST_0",
                "ALOAD 0", "GETFIELD early/Loader.cells : [I", "ICONST_1", "IALOAD", ACQUIRE,
                RELEASE, "IASTORE", FULL, "RETURN"), Bytecode.of(after, "load"));
        assertEquals(0, Bytecode.access(after, "loads") & Opcodes.ACC_VOLATILE);
        assertEquals(0, Bytecode.access(after, "created") & Opcodes.ACC_VOLATILE);
    }

    @Test
    void laterClassesFenceTheirAccessesToThoseFields() {
        ClassRewriter rw = new ClassRewriter(POLICY, Bytecode.sourceOf(CLASSES)).fenceFields(PLAIN);
        byte[] later = Bytecode.rewritten(rw, CLASSES, "early/Later");
        assertEquals(List.of("ALOAD 0", "GETFIELD early/Loader.loads : I", ACQUIRE, "IRETURN"), Bytecode.of(later, "peek"));
        assertEquals(List.of("BIPUSH 7", RELEASE, "PUTSTATIC early/Loader.created : I", FULL, "RETURN"),
                Bytecode.of(later, "poke"));
    }

    @Test
    void theVerifierAcceptsFencedAccessesToPlainFieldsAndReportsTheOthers() {
        ClassRewriter rw = new ClassRewriter(POLICY, Bytecode.sourceOf(CLASSES));
        byte[] laterFenced = Bytecode.rewritten(new ClassRewriter(POLICY, Bytecode.sourceOf(CLASSES)).fenceFields(PLAIN),
                CLASSES, "early/Later");
        byte[] laterUnfenced = Bytecode.rewritten(rw, CLASSES, "early/Later");

        VerifyReport ok = new Verifier(POLICY).verify(List.of(ClassEntry.of("app", fencedLoader()), ClassEntry.of("app", laterFenced)));
        assertEquals(0, ok.nonSc(), () -> String.valueOf(ok.findings()));
        assertEquals(1, ok.uncovered(), "the early class has no marker: its fields are not volatile");

        VerifyReport bad = new Verifier(POLICY).verify(List.of(ClassEntry.of("app", LOADER), ClassEntry.of("app", laterUnfenced)));
        List<String> details = bad.findings().stream().filter(f -> f.kind() == Finding.Kind.FIELD)
                .map(f -> f.className().replace('/', '.') + "." + f.method() + ": " + f.detail()).toList();
        assertTrue(details.contains("early.Later.peek(Learly/Loader;)I: reads early.Loader.loads (I), neither volatile nor final nor fenced"),
                () -> String.valueOf(details));
        assertTrue(details.contains("early.Later.poke()V: writes early.Loader.created (I), neither volatile nor final nor fenced"),
                () -> String.valueOf(details));
    }
}
