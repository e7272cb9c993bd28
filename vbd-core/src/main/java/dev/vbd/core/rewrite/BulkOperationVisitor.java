package dev.vbd.core.rewrite;

import org.objectweb.asm.MethodVisitor;

/** A full fence before and after every bulk operation (see {@link BulkOperations}). */
final class BulkOperationVisitor extends FencingVisitor {
    BulkOperationVisitor(MethodVisitor next) {
        super(next);
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
        if (BulkOperations.isBulk(owner, name, descriptor)) {
            full();
            super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
            full();
        } else {
            super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        }
    }
}
