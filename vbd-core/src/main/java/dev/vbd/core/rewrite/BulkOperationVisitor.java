package dev.vbd.core.rewrite;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/** A full fence before and after every bulk operation (see {@link BulkOperations}). */
final class BulkOperationVisitor extends MethodVisitor {
    BulkOperationVisitor(MethodVisitor next) {
        super(Opcodes.ASM9, next);
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
        if (BulkOperations.isBulk(owner, name, descriptor)) {
            Fences.full(mv);
            super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
            Fences.full(mv);
        } else {
            super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        }
    }
}
