package dev.vbd.core.rewrite;

import dev.vbd.core.ClassBytesSource;
import dev.vbd.core.policy.Policy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The marker makes the rewrite idempotent; vbd's own classes are never rewritten. */
class IdempotenceTest {
    private static final byte[] PLAIN = Bytecode.compileOne("""
            package idem;
            public class Plain {
                int n;
                int[] a;
                int get(int i) { return a[i] + n; }
            }
            """);

    private static byte[] emptyClass(String internalName) {
        ClassWriter cw = new ClassWriter(0);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, internalName, null, "java/lang/Object", null);
        cw.visitField(0, "f", "I", null, null).visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    @Test
    void rewritingARewrittenClassReportsAlreadyRewritten() {
        ClassRewriter rewriter = new ClassRewriter(Policy.defaults(), ClassBytesSource.NONE);
        RewriteResult first = rewriter.rewrite(PLAIN);
        assertEquals(RewriteResult.Status.REWRITTEN, first.status());
        RewriteResult second = rewriter.rewrite(first.bytes());
        assertEquals(RewriteResult.Status.ALREADY_REWRITTEN, second.status());
        assertEquals("idem/Plain", second.className());
        assertNull(second.bytes(), "nothing to write back");
    }

    @Test
    void aFreshRewriterAlsoRecognisesTheMarker() {
        byte[] once = Bytecode.rewrite(PLAIN).bytes();
        assertEquals(RewriteResult.Status.ALREADY_REWRITTEN, Bytecode.rewrite(once).status());
    }

    @Test
    void rewritingIsDeterministic() {
        byte[] a = Bytecode.rewrite(PLAIN).bytes();
        byte[] b = Bytecode.rewrite(PLAIN).bytes();
        assertArrayEquals(a, b);
        assertEquals(Bytecode.of(a, "get"), Bytecode.of(b, "get"));
    }

    @Test
    void inputBytesAreNotModified() {
        byte[] copy = Arrays.copyOf(PLAIN, PLAIN.length);
        Bytecode.rewrite(PLAIN);
        assertArrayEquals(copy, PLAIN);
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev/vbd/core/rewrite/Helper", "dev/vbd/agent/VbdAgent", "dev/vbd/cli/Main",
            "dev/vbd/shaded/asm/ClassReader", "java/util/concurrent/atomic/VbdRuntime", "jdk/internal/misc/VbdFences",
            "java/util/concurrent/atomic/VbdFieldModifiers",
            "org/openjdk/jmh/infra/Blackhole"})
    void vbdsOwnAndHarnessClassesAreExcluded(String name) {
        RewriteResult r = Bytecode.rewrite(emptyClass(name));
        assertEquals(RewriteResult.Status.EXCLUDED, r.status());
        assertEquals(name, r.className());
        assertNull(r.bytes());
        assertTrue(r.reason() != null && !r.reason().isBlank());
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev/vbd/demo/Demo", "dev/vbd/corelike/A", "java/util/concurrent/atomic/AtomicInteger",
            "org/openjdk/jmh/infra/BenchmarkParams"})
    void similarNamesAreRewritten(String name) {
        RewriteResult r = Bytecode.rewrite(emptyClass(name));
        assertEquals(RewriteResult.Status.REWRITTEN, r.status());
        assertEquals(List.of("f"), r.flipped());
    }

    @Test
    void moduleInfoIsNotRewritten() {
        ClassWriter cw = new ClassWriter(0);
        cw.visit(Opcodes.V17, Opcodes.ACC_MODULE, "module-info", null, null, null);
        cw.visitModule("m", 0, null).visitEnd();
        cw.visitEnd();
        assertEquals(RewriteResult.Status.EXCLUDED, Bytecode.rewrite(cw.toByteArray()).status());
    }

    @Test
    void unreadableClassFileIsARewriteException() {
        byte[] truncated = Arrays.copyOf(PLAIN, PLAIN.length / 2);
        assertThrows(RewriteException.class, () -> Bytecode.rewrite(truncated));
        byte[] garbage = {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE, 0, 0, 0, 61, 0, 5};
        assertThrows(RewriteException.class, () -> Bytecode.rewrite(garbage));
    }
}
