package dev.vbd.agent;

import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A small class on which every visitor of the rewrite runs: a static field, an array store and a
 * bulk copy, all in its {@code main}. The agent rewrites one before it registers its transformer
 * ({@link LoadTimeRewriter#warmUp}); a runtime image's training run runs one, so that its class
 * data sharing archive holds what the rewrite loads.
 */
public final class ExerciseClass {
    private ExerciseClass() {}

    public static byte[] generate(String name) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, name, null, "java/lang/Object", null);
        cw.visitField(Opcodes.ACC_STATIC, "f", "[I", null, null).visitEnd();
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "main", "([Ljava/lang/String;)V", null, null);
        mv.visitCode();
        mv.visitInsn(Opcodes.ICONST_2);
        mv.visitIntInsn(Opcodes.NEWARRAY, Opcodes.T_INT);
        mv.visitFieldInsn(Opcodes.PUTSTATIC, name, "f", "[I");
        mv.visitFieldInsn(Opcodes.GETSTATIC, name, "f", "[I");
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitInsn(Opcodes.ICONST_1);
        mv.visitInsn(Opcodes.IASTORE);
        mv.visitFieldInsn(Opcodes.GETSTATIC, name, "f", "[I");
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitFieldInsn(Opcodes.GETSTATIC, name, "f", "[I");
        mv.visitInsn(Opcodes.ICONST_1);
        mv.visitInsn(Opcodes.ICONST_1);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/System", "arraycopy", "(Ljava/lang/Object;ILjava/lang/Object;II)V", false);
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }
}
