package dev.vbd.core.rewrite;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Array elements cannot be declared volatile, so each element access gets the barriers HotSpot
 * puts around a volatile access: a load is followed by an acquire fence; a store is preceded by
 * a release fence and followed by a full fence. The original {@code xaload}/{@code xastore}
 * stays, so NullPointerException, ArrayIndexOutOfBoundsException and ArrayStoreException
 * keep their type, order and message.
 */
final class ArrayAccessVisitor extends MethodVisitor {
    /** Stores into a freshly allocated array still on the stack need no fence (see {@link FreshArrayInit}). */
    private final FreshArrayInit fresh = new FreshArrayInit();

    ArrayAccessVisitor(MethodVisitor next) {
        super(Opcodes.ASM9, next);
    }

    @Override
    public void visitInsn(int opcode) {
        if (isArrayLoad(opcode)) {
            fresh.reset();
            super.visitInsn(opcode);
            Fences.acquire(mv);
        } else if (isArrayStore(opcode)) {
            if (fresh.store()) {
                super.visitInsn(opcode);
            } else {
                Fences.release(mv);
                super.visitInsn(opcode);
                Fences.full(mv);
            }
        } else {
            if (opcode == Opcodes.DUP) {
                fresh.dup();
            } else if (isConstant(opcode)) {
                fresh.constant();
            } else {
                fresh.reset();
            }
            super.visitInsn(opcode);
        }
    }

    @Override
    public void visitIntInsn(int opcode, int operand) {
        if (opcode == Opcodes.NEWARRAY) {
            fresh.newArray();
        } else if (opcode == Opcodes.BIPUSH || opcode == Opcodes.SIPUSH) {
            fresh.constant();
        } else {
            fresh.reset();
        }
        super.visitIntInsn(opcode, operand);
    }

    @Override
    public void visitLdcInsn(Object value) {
        if (isConstantLdc(value)) {
            fresh.constant();
        } else {
            fresh.reset();
        }
        super.visitLdcInsn(value);
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
        if (opcode == Opcodes.ANEWARRAY) {
            fresh.newArray();
        } else {
            fresh.reset();
        }
        super.visitTypeInsn(opcode, type);
    }

    private static boolean isConstant(int opcode) {
        return FreshArrayInit.isConstantOpcode(opcode);
    }

    private static boolean isConstantLdc(Object value) {
        return FreshArrayInit.isConstantLdc(value);
    }

    @Override public void visitVarInsn(int opcode, int varIndex) { fresh.reset(); super.visitVarInsn(opcode, varIndex); }
    @Override public void visitFieldInsn(int opcode, String owner, String name, String descriptor) { fresh.reset(); super.visitFieldInsn(opcode, owner, name, descriptor); }
    @Override public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) { fresh.reset(); super.visitMethodInsn(opcode, owner, name, descriptor, isInterface); }
    @Override public void visitInvokeDynamicInsn(String name, String descriptor, org.objectweb.asm.Handle bsm, Object... args) { fresh.reset(); super.visitInvokeDynamicInsn(name, descriptor, bsm, args); }
    @Override public void visitJumpInsn(int opcode, org.objectweb.asm.Label label) { fresh.reset(); super.visitJumpInsn(opcode, label); }
    @Override public void visitLabel(org.objectweb.asm.Label label) { fresh.reset(); super.visitLabel(label); }
    @Override public void visitIincInsn(int varIndex, int increment) { fresh.reset(); super.visitIincInsn(varIndex, increment); }
    @Override public void visitTableSwitchInsn(int min, int max, org.objectweb.asm.Label dflt, org.objectweb.asm.Label... labels) { fresh.reset(); super.visitTableSwitchInsn(min, max, dflt, labels); }
    @Override public void visitLookupSwitchInsn(org.objectweb.asm.Label dflt, int[] keys, org.objectweb.asm.Label[] labels) { fresh.reset(); super.visitLookupSwitchInsn(dflt, keys, labels); }
    @Override public void visitMultiANewArrayInsn(String descriptor, int numDimensions) { fresh.reset(); super.visitMultiANewArrayInsn(descriptor, numDimensions); }
    @Override public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) { fresh.reset(); super.visitFrame(type, numLocal, local, numStack, stack); }

    static boolean isArrayLoad(int opcode) {
        return FreshArrayInit.isArrayLoad(opcode);
    }

    static boolean isArrayStore(int opcode) {
        return FreshArrayInit.isArrayStore(opcode);
    }
}
