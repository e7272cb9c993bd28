package dev.vbd.core.rewrite;

import dev.vbd.core.Conventions;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.MethodInsnNode;

/**
 * A method visitor that places the barriers HotSpot puts around a volatile access: an acquire fence
 * after a load; a release fence before a store and a full fence after it.
 *
 * <p>The release and full fences are calls to the runtime's {@code release()} and {@code full()},
 * which C1 and C2 inline to {@code Unsafe}'s fence intrinsics. On x86-64 the acquire fence is written
 * into the method instead: a load of the runtime's volatile {@code order} field, whose value is
 * dropped. The interpreter then pays one field load where a call (and, inside it, a native call)
 * costs a hundred times more; C1 and C2 compile the volatile load to the same barrier their
 * {@code Unsafe.loadFence} intrinsic gives, which no memory access crosses; and x86-64 itself
 * reorders no load or store with an earlier load, so the barrier needs no instruction there.
 * Elsewhere (AArch64 compiles a volatile load to a one-way {@code ldar}, which does not keep an
 * earlier plain load before later ones) it stays a call. The release fence stays a call everywhere:
 * written as a load, it would stand between two fenced stores and keep C2 from dropping the first
 * store's full fence, which it does when no load follows before the next one. The field is never
 * written, so its cache line stays shared by every core.
 */
abstract class FencingVisitor extends MethodVisitor {
    private boolean inlined;

    FencingVisitor(MethodVisitor next) {
        super(Opcodes.ASM9, next);
    }

    final void acquire() {
        if (Conventions.INLINE_FENCES) {
            mv.visitFieldInsn(Opcodes.GETSTATIC, Conventions.RUNTIME, Conventions.ORDER, Conventions.ORDER_DESC);
            mv.visitInsn(Opcodes.POP);
            inlined = true;
        } else {
            call(mv, Conventions.ACQUIRE);
        }
    }

    final void release() {
        call(mv, Conventions.RELEASE);
    }

    final void full() {
        call(mv, Conventions.FULL);
    }

    /**
     * The instructions of a release fence placed into a method's tree before it is visited. On
     * x86-64 it is the inline acquire fence's load: C1 and C2 let no memory access cross the barrier
     * that follows it, earlier stores included, and the processor keeps stores in order, so it
     * orders every store before it ahead of every access after it. A call elsewhere.
     */
    static InsnList releaseInsns() {
        InsnList l = new InsnList();
        if (Conventions.INLINE_FENCES) {
            l.add(new FieldInsnNode(Opcodes.GETSTATIC, Conventions.RUNTIME, Conventions.ORDER, Conventions.ORDER_DESC));
            l.add(new InsnNode(Opcodes.POP));
        } else {
            l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, Conventions.RUNTIME, Conventions.RELEASE, Conventions.FENCE_DESC, false));
        }
        return l;
    }

    private static void call(MethodVisitor mv, String fence) {
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, Conventions.RUNTIME, fence, Conventions.FENCE_DESC, false);
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
        // the class writer computes nothing: an inline fence holds one int for one instruction
        super.visitMaxs(inlined ? maxStack + 1 : maxStack, maxLocals);
    }
}
