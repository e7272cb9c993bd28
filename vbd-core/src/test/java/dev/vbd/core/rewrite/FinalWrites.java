package dev.vbd.core.rewrite;

import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Builds {@code cl.A} with {@code final int x} and {@code static final int S}, a constructor
 * {@code A(int)} that stores {@code x} into {@code this} first and an initialiser that stores
 * {@code S}, and the writes asked for: writes javac never emits but the JVM allows, as bytecode
 * generators and weavers emit them.
 */
public final class FinalWrites {
    private final ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
    private boolean constructorDone;

    public static FinalWrites of(int version) {
        FinalWrites f = new FinalWrites();
        f.cw.visit(version, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, "cl/A", null, "java/lang/Object", null);
        f.cw.visitField(Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL, "x", "I", null, null).visitEnd();
        f.cw.visitField(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC | Opcodes.ACC_FINAL, "S", "I", null, null).visitEnd();
        f.cw.visitField(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "last", "Ljava/lang/Object;", null, null).visitEnd();
        MethodVisitor clinit = f.cw.visitMethod(Opcodes.ACC_STATIC, "<clinit>", "()V", null, null);
        clinit.visitCode();
        clinit.visitInsn(Opcodes.ICONST_1);
        clinit.visitFieldInsn(Opcodes.PUTSTATIC, "cl/A", "S", "I");
        clinit.visitInsn(Opcodes.RETURN);
        clinit.visitMaxs(0, 0);
        clinit.visitEnd();
        return f;
    }

    /** {@code A(int v) { super(); this.x = v; }} */
    private void constructor() {
        if (constructorDone) return;
        constructorDone = true;
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "(I)V", null, null);
        mv.visitCode();
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitVarInsn(Opcodes.ILOAD, 1);
        mv.visitFieldInsn(Opcodes.PUTFIELD, "cl/A", "x", "I");
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    /** A method that writes {@code x} of {@code this} (or {@code S}) after construction. */
    public FinalWrites setter(String name, boolean isStatic) {
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC | (isStatic ? Opcodes.ACC_STATIC : 0), name, "(I)V", null, null);
        mv.visitCode();
        if (isStatic) {
            mv.visitVarInsn(Opcodes.ILOAD, 0);
            mv.visitFieldInsn(Opcodes.PUTSTATIC, "cl/A", "S", "I");
        } else {
            mv.visitVarInsn(Opcodes.ALOAD, 0);
            mv.visitVarInsn(Opcodes.ILOAD, 1);
            mv.visitFieldInsn(Opcodes.PUTFIELD, "cl/A", "x", "I");
        }
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        return this;
    }

    /** A method that writes {@code x} of {@code this} naming the field through {@code owner}. */
    public FinalWrites setterThrough(String name, String owner) {
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC, name, "(L" + owner + ";I)V", null, null);
        mv.visitCode();
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        mv.visitVarInsn(Opcodes.ILOAD, 2);
        mv.visitFieldInsn(Opcodes.PUTFIELD, owner, "x", "I");
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        return this;
    }

    /** {@code A(A other) { super(); this.x = 1; other.x = 2; }} */
    public FinalWrites constructorWritingOther() {
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "(Lcl/A;)V", null, null);
        mv.visitCode();
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitInsn(Opcodes.ICONST_1);
        mv.visitFieldInsn(Opcodes.PUTFIELD, "cl/A", "x", "I");
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        mv.visitInsn(Opcodes.ICONST_2);
        mv.visitFieldInsn(Opcodes.PUTFIELD, "cl/A", "x", "I");
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        return this;
    }

    /** {@code A() { super(); last = this; }} and {@code A(int v, int w) { this(); this.x = v; }} */
    public FinalWrites leakingConstructorThenThisCall() {
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        mv.visitCode();
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitFieldInsn(Opcodes.PUTSTATIC, "cl/A", "last", "Ljava/lang/Object;");
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "(II)V", null, null);
        mv.visitCode();
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, "cl/A", "<init>", "()V", false);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitVarInsn(Opcodes.ILOAD, 1);
        mv.visitFieldInsn(Opcodes.PUTFIELD, "cl/A", "x", "I");
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        return this;
    }

    public byte[] bytes() {
        constructor();
        cw.visitEnd();
        return cw.toByteArray();
    }
}
