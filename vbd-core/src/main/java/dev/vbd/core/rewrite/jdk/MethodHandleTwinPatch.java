package dev.vbd.core.rewrite.jdk;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * {@code DirectMethodHandle.make(byte refKind, Class refc, MemberName member, Class caller)}, the
 * one factory of direct method handles, first passes {@code member} through
 * {@code java.lang.invoke.VbdMethodHandles.redirect(member, refc, caller)}.
 */
final class MethodHandleTwinPatch extends EntryPatch {
    static final String OWNER = "java/lang/invoke/DirectMethodHandle";
    private static final String MEMBER = "Ljava/lang/invoke/MemberName;";

    MethodHandleTwinPatch(ClassVisitor next) {
        super(next);
    }

    @Override
    boolean patches(String name, String descriptor) {
        return name.equals("make") && descriptor.equals("(BLjava/lang/Class;" + MEMBER + "Ljava/lang/Class;)L" + OWNER + ";");
    }

    @Override
    void emit(MethodVisitor mv) {
        mv.visitVarInsn(Opcodes.ALOAD, 2);
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        mv.visitVarInsn(Opcodes.ALOAD, 3);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/invoke/VbdMethodHandles", "redirect",
                "(" + MEMBER + "Ljava/lang/Class;Ljava/lang/Class;)" + MEMBER, false);
        mv.visitVarInsn(Opcodes.ASTORE, 2);
    }

    @Override
    int stack() {
        return 3;
    }
}
