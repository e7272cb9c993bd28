package dev.vbd.core.rewrite;

import dev.vbd.core.Conventions;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Speculative fields ({@link FieldMode#SPECULATIVE}): an access to an instance field that must be
 * sequentially consistent asks the field's hierarchy, through {@code invokedynamic}, whether the
 * current thread owns the object, and is fenced only if not. The answer is a call site that C2
 * inlines to a load of the owner and a compare while no other thread has touched an object of the
 * hierarchy, and that becomes a constant "no" (deoptimising that code) once one has.
 *
 * <pre>
 * load:  dup; owned?(o); swap; getfield; [swap the answer above the value]; afterLoad(answer)
 * store: release; [copy o under o, v]; putfield; owned?(o); afterStore(answer)
 * </pre>
 *
 * The check of a load comes first: another thread's first touch switches the hierarchy, and so
 * stops every thread, before it loads. The check of a store comes after the store, so that a
 * thread stopped between the two has its store behind it (the reasons are in docs/speculation.md).
 * {@code Object.clone} reads every field of the object without a check, so a call that may reach
 * it first passes the object to {@code beforeClone}, which switches its hierarchy when another
 * thread owns it. Nothing branches in the method: the fences are decided inside {@code afterLoad}/{@code afterStore},
 * and the method's stack map frames stay as they are. Static fields keep their fences; so do
 * fields the JDK declares (its code accesses them unchecked), and class files older than version
 * 51, which cannot hold {@code invokedynamic}.
 */
final class SpeculativeFieldVisitor extends FencedFieldVisitor {
    private static final Handle OWNED = new Handle(Opcodes.H_INVOKESTATIC, Conventions.SPECULATION,
            Conventions.OWNED_BSM, Conventions.OWNED_BSM_DESC, false);
    private final FieldOracle checked;
    private int extraStack;

    /** {@code checked} answers whether every access to a field carries the check (a program's field, not the JDK's). */
    SpeculativeFieldVisitor(MethodVisitor next, FieldOracle fence, FieldOracle checked) {
        super(next, fence);
        this.checked = checked;
    }

    @Override
    void fenced(int opcode, String owner, String name, String descriptor) {
        boolean wide = Type.getType(descriptor).getSize() == 2;
        if ((opcode == Opcodes.GETFIELD || opcode == Opcodes.PUTFIELD) && !checked.madeVolatile(owner, name, descriptor)) {
            super.fenced(opcode, owner, name, descriptor);
        } else if (opcode == Opcodes.GETFIELD) {
            mv.visitInsn(Opcodes.DUP);
            owned(owner);
            mv.visitInsn(Opcodes.SWAP);
            mv.visitFieldInsn(opcode, owner, name, descriptor);
            if (wide) {
                mv.visitInsn(Opcodes.DUP2_X1);
                mv.visitInsn(Opcodes.POP2);
            } else {
                mv.visitInsn(Opcodes.SWAP);
            }
            after(Conventions.AFTER_LOAD);
            extraStack = Math.max(extraStack, wide ? 3 : 1);
        } else if (opcode == Opcodes.PUTFIELD) {
            release();
            if (wide) { // o, v.v -> o, o, v.v
                mv.visitInsn(Opcodes.DUP2_X1);
                mv.visitInsn(Opcodes.POP2);
                mv.visitInsn(Opcodes.DUP);
                mv.visitInsn(Opcodes.DUP2_X2);
                mv.visitInsn(Opcodes.POP2);
            } else { // o, v -> o, o, v
                mv.visitInsn(Opcodes.SWAP);
                mv.visitInsn(Opcodes.DUP_X1);
                mv.visitInsn(Opcodes.SWAP);
            }
            mv.visitFieldInsn(opcode, owner, name, descriptor);
            owned(owner);
            after(Conventions.AFTER_STORE);
            extraStack = Math.max(extraStack, wide ? 3 : 1);
        } else {
            super.fenced(opcode, owner, name, descriptor);
        }
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
        if ((opcode == Opcodes.INVOKESPECIAL || opcode == Opcodes.INVOKEVIRTUAL) && name.equals("clone")
                && descriptor.equals("()Ljava/lang/Object;") && !owner.startsWith("[")) {
            mv.visitInsn(Opcodes.DUP);
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, Conventions.SPECULATION, Conventions.BEFORE_CLONE,
                    Conventions.BEFORE_CLONE_DESC, false);
            extraStack = Math.max(extraStack, 1);
        }
        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    }

    private void owned(String owner) {
        mv.visitInvokeDynamicInsn(Conventions.OWNED_NAME, Conventions.OWNED_DESC, OWNED, Type.getObjectType(owner));
    }

    private void after(String which) {
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, Conventions.SPECULATION, which, Conventions.AFTER_DESC, false);
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
        super.visitMaxs(maxStack + extraStack, maxLocals);
    }
}
