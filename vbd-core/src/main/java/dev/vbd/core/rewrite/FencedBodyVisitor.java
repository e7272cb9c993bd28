package dev.vbd.core.rewrite;

import dev.vbd.core.Conventions;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

/**
 * A bulk operation's body ({@link BulkOperations#isFencedBody}): a full fence on entry and before
 * every return, and a handler covering the whole body that fences and rethrows, so that stores
 * made before an exception (an ArrayStoreException half-way through a fill) are fenced too. The
 * handler is the last entry of the exception table: the method's own handlers keep precedence.
 * Its frame names no locals, which every frame of the body is assignable to.
 */
final class FencedBodyVisitor extends MethodNode {
    private final MethodVisitor next;

    FencedBodyVisitor(int access, String name, String descriptor, String signature, String[] exceptions,
                      MethodVisitor next) {
        super(Opcodes.ASM9, access, name, descriptor, signature, exceptions);
        this.next = next;
    }

    @Override
    public void visitEnd() {
        InsnList code = instructions;
        if (code.size() > 0) {
            LabelNode start = new LabelNode(new Label());
            LabelNode end = new LabelNode(new Label());
            LabelNode handler = new LabelNode(new Label());
            code.insert(fence());
            code.insert(start);
            for (AbstractInsnNode i = code.getFirst(); i != null; i = i.getNext()) {
                int op = i.getOpcode();
                if (op >= Opcodes.IRETURN && op <= Opcodes.RETURN) code.insertBefore(i, fence());
            }
            code.add(end);
            code.add(handler);
            code.add(new FrameNode(Opcodes.F_FULL, 0, null, 1, new Object[]{"java/lang/Throwable"}));
            code.add(fence());
            code.add(new InsnNode(Opcodes.ATHROW));
            tryCatchBlocks.add(new TryCatchBlockNode(start, end, handler, null));
            maxStack = Math.max(maxStack, 1);
        }
        accept(next);
    }

    private static MethodInsnNode fence() {
        return new MethodInsnNode(Opcodes.INVOKESTATIC, Conventions.RUNTIME, Conventions.FULL, Conventions.FENCE_DESC, false);
    }
}
