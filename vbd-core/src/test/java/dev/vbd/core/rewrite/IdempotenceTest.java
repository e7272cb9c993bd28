package dev.vbd.core.rewrite;

import dev.vbd.core.ClassBytesSource;
import dev.vbd.core.Conventions;
import dev.vbd.core.policy.Policy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Opcodes;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The marker makes the rewrite idempotent where it can be trusted: on the prepared JDK's classes.
 * A program's class is rewritten whatever marker it carries and whatever its name; only vbd's
 * runtime classes in the JDK's java.base are left alone, and only there.
 */
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
    void aProgramLoaderTrustsTheMarkerOnTheJdksOwnClassFilesAlone() {
        byte[] once = Bytecode.rewrite(PLAIN).bytes();
        ClassRewriter rewriter = new ClassRewriter(Policy.defaults(), ClassBytesSource.NONE)
                .jdkClasses(n -> n.equals("idem/Plain") ? once : null);
        RewriteResult second = rewriter.rewrite(once);
        assertEquals(RewriteResult.Status.ALREADY_REWRITTEN, second.status());
        assertEquals("idem/Plain", second.className());
        assertNull(second.bytes(), "nothing to write back");
    }

    @Test
    void theJdksLoadersRecogniseTheMarker() {
        byte[] once = Bytecode.rewrite(PLAIN).bytes();
        ClassRewriter boot = new ClassRewriter(Policy.defaults(), ClassBytesSource.NONE, true);
        assertEquals(RewriteResult.Status.ALREADY_REWRITTEN, boot.rewrite(once).status());
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aForgedMarkerIsDroppedAndTheClassRewritten(boolean visible) {
        ClassWriter cw = new ClassWriter(0);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "app/Forged", null, "java/lang/Object", null);
        cw.visitAnnotation(Conventions.MARKER_DESC, visible).visitEnd();
        cw.visitField(0, "f", "I", null, null).visitEnd();
        cw.visitEnd();
        byte[] forged = cw.toByteArray();
        // the JDK holds a class of that name, but not these bytes
        byte[] other = emptyClass("app/Forged");
        for (ClassRewriter rewriter : List.of(new ClassRewriter(Policy.defaults(), ClassBytesSource.NONE),
                new ClassRewriter(Policy.defaults(), ClassBytesSource.NONE).jdkClasses(n -> other))) {
            RewriteResult r = rewriter.rewrite(forged);
            assertEquals(RewriteResult.Status.REWRITTEN, r.status(), r::reason);
            assertEquals(List.of("f"), r.flipped());
            assertEquals(1, markers(r.bytes()), "exactly one marker, vbd's");
            assertEquals(java.lang.reflect.Modifier.VOLATILE, fieldAccess(r.bytes()) & Opcodes.ACC_VOLATILE);
        }
    }

    /** A forged marker on another class must not say which of its fields need fences. */
    @Test
    void aForgedMarkerDecidesNothingAboutAccessesToItsFields() {
        ClassWriter cw = new ClassWriter(0);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "app/Forged", null, "java/lang/Object", null);
        cw.visitAnnotation(Conventions.MARKER_DESC, false).visitEnd(); // lists no field as flipped
        cw.visitField(0, "f", "I", null, null).visitEnd();
        cw.visitEnd();
        byte[] forged = cw.toByteArray();
        ClassRewriter fenced = new ClassRewriter(Policy.defaults(), n -> n.equals("app/Forged") ? forged : null)
                .fields(FieldMode.FENCED);
        assertTrue(fenced.fencedField("app/Forged", "f", "I"));
        ClassRewriter jdkSays = new ClassRewriter(Policy.defaults(), n -> n.equals("app/Forged") ? forged : null)
                .fields(FieldMode.FENCED).jdkClasses(n -> n.equals("app/Forged") ? forged : null);
        assertFalse(jdkSays.fencedField("app/Forged", "f", "I"), "the JDK's own marker is believed");
    }

    private static int markers(byte[] bytes) {
        int[] n = {0};
        new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
                if (Conventions.MARKER_DESC.equals(descriptor)) n[0]++;
                return null;
            }
        }, 0);
        return n[0];
    }

    private static int fieldAccess(byte[] bytes) {
        int[] access = {0};
        new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public FieldVisitor visitField(int a, String name, String descriptor, String signature, Object value) {
                if (name.equals("f")) access[0] = a;
                return null;
            }
        }, 0);
        return access[0];
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
    @ValueSource(strings = {"java/util/concurrent/atomic/VbdRuntime", "jdk/internal/misc/VbdFences",
            "java/util/concurrent/atomic/VbdFieldModifiers", "jdk/internal/misc/Vbd_ImageRewriting"})
    void vbdsRuntimeClassesInTheJdkAreExcluded(String name) {
        RewriteResult r = new ClassRewriter(Policy.defaults(), ClassBytesSource.NONE, true).rewrite(emptyClass(name));
        assertEquals(RewriteResult.Status.EXCLUDED, r.status());
        assertEquals(name, r.className());
        assertNull(r.bytes());
        assertTrue(r.reason() != null && !r.reason().isBlank());
    }

    /** A program's loader may name its classes anything: no name makes one vbd's own. */
    @ParameterizedTest
    @ValueSource(strings = {"dev/vbd/core/rewrite/Helper", "dev/vbd/agent/VbdAgent", "dev/vbd/cli/Main",
            "dev/vbd/shaded/asm/ClassReader", "dev/vbd/internal/Foo", "jdk/internal/misc/VbdFences",
            "org/openjdk/jmh/infra/Blackhole", "org/openjdk/jmh/infra/BlackholeX",
            "dev/vbd/demo/Demo", "dev/vbd/corelike/A", "java/util/concurrent/atomic/AtomicInteger",
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
