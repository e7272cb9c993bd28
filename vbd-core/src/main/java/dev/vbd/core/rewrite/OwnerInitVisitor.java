package dev.vbd.core.rewrite;

import dev.vbd.core.Conventions;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Speculative fields: a constructor of the topmost program class of a hierarchy first records the
 * current thread as the object's owner. It does so before {@code super(...)} (the JVM allows a
 * class to store its own fields into {@code this} then), so that no code, a superclass's
 * constructor included, sees the object without an owner; only objects made without a
 * constructor (deserialisation, {@code Unsafe.allocateInstance}) have none, and the first access
 * to one of those switches its hierarchy to fenced.
 */
final class OwnerInitVisitor extends MethodVisitor {
    private final String owner;

    OwnerInitVisitor(MethodVisitor next, String owner) {
        super(Opcodes.ASM9, next);
        this.owner = owner;
    }

    @Override
    public void visitCode() {
        super.visitCode();
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/Thread", "currentThread", "()Ljava/lang/Thread;", false);
        mv.visitFieldInsn(Opcodes.PUTFIELD, owner, Conventions.OWNER_FIELD, Conventions.OWNER_FIELD_DESC);
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
        super.visitMaxs(Math.max(maxStack, 2), maxLocals);
    }
}
