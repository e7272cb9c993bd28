package dev.vbd.core.rewrite;

import dev.vbd.core.Conventions;
import dev.vbd.core.policy.Policy;
import dev.vbd.core.policy.RelaxedConfig;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where relaxing buys less than asked (guarantee.md lists these): the access stays volatile, which
 * is correct, only not plain. Each test shows one of them.
 */
class RelaxedLimitsTest {
    private static final Map<String, byte[]> CLASSES = Bytecode.compile("""
            package lim;
            public class Counter {
                int hits;
                int read() { return hits; }
            }
            """);

    /** JDK code may run before java.lang.invoke works: a relaxed JDK method cannot link a plain access. */
    @Test
    void relaxedJdkMethodKeepsVolatileAccessToAFieldVbdMadeVolatile() throws Exception {
        Policy policy = new Policy(RelaxedConfig.parse("test", List.of("method lim.Counter#read")));
        byte[] after = Bytecode.rewritten(ClassRewriter.forJdk(policy, Bytecode.sourceOf(CLASSES)), CLASSES, "lim/Counter");
        assertEquals(Opcodes.ACC_VOLATILE, Bytecode.access(after, "hits") & Opcodes.ACC_VOLATILE);
        assertEquals(List.of("ALOAD 0", "GETFIELD lim/Counter.hits : I", "IRETURN"), Bytecode.of(after, "read"));
        // the same method in application code gets its plain access
        byte[] app = Bytecode.rewritten(new ClassRewriter(policy, Bytecode.sourceOf(CLASSES)), CLASSES, "lim/Counter");
        assertTrue(Bytecode.of(app, "read").get(1).startsWith("INVOKEDYNAMIC hits"), Bytecode.of(app, "read").toString());
    }

    /** invokedynamic needs class files of version 51 or later. */
    @Test
    void relaxedMethodOfAClassFileOlderThanJava7KeepsVolatileAccess() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V1_6, Opcodes.ACC_PUBLIC, "lim/Old", null, "java/lang/Object", null);
        cw.visitField(0, "hits", "I", null, null).visitEnd();
        MethodVisitor mv = cw.visitMethod(0, "read", "()I", null, null);
        mv.visitAnnotation(Conventions.RELAXED_DESC, false).visitEnd();
        mv.visitCode();
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitFieldInsn(Opcodes.GETFIELD, "lim/Old", "hits", "I");
        mv.visitInsn(Opcodes.IRETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        Map<String, byte[]> old = Map.of("lim/Old", cw.toByteArray());
        byte[] after = Bytecode.rewritten(old, "lim/Old");
        assertEquals(Opcodes.ACC_VOLATILE, Bytecode.access(after, "hits") & Opcodes.ACC_VOLATILE);
        assertEquals(List.of("ALOAD 0", "GETFIELD lim/Old.hits : I", "IRETURN"), Bytecode.of(after, "read"));
    }
}
