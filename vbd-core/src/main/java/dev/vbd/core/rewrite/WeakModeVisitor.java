package dev.vbd.core.rewrite;

import org.objectweb.asm.MethodVisitor;

/** Calls to weak access modes of VarHandle, Atomic* and Unsafe become their volatile modes. */
final class WeakModeVisitor extends FencingVisitor {
    WeakModeVisitor(MethodVisitor next) {
        super(next);
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
        Object c = WeakModes.classify(owner, name, descriptor);
        if (c instanceof WeakModes.Upgrade u) {
            super.visitMethodInsn(opcode, owner, u.newName(), descriptor, isInterface);
        } else if (c instanceof WeakModes.Fence f) {
            if (f.kind() == WeakModes.Kind.LOAD) {
                super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
                acquire();
            } else {
                release();
                super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
                full();
            }
        } else {
            super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        }
    }
}
