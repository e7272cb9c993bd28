package dev.vbd.core.rewrite.jdk;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * In {@code java.lang.invoke}, a field's offset for a method handle or a VarHandle comes from
 * {@code MethodHandleNatives.objectFieldOffset(MemberName)}, a native method; its callers call
 * {@code VbdMethodHandles.objectFieldOffset} instead, which tells the speculative fields' runtime
 * first (see {@link FieldOffsetPatch}).
 */
final class MemberOffsetPatch extends ClassVisitor {
    static final String PACKAGE = "java/lang/invoke/";
    private static final String NATIVES = "java/lang/invoke/MethodHandleNatives";
    private static final String DESC = "(Ljava/lang/invoke/MemberName;)J";

    MemberOffsetPatch(ClassVisitor next) {
        super(Opcodes.ASM9, next);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        return new MethodVisitor(Opcodes.ASM9, super.visitMethod(access, name, descriptor, signature, exceptions)) {
            @Override
            public void visitMethodInsn(int opcode, String owner, String n, String d, boolean itf) {
                if (opcode == Opcodes.INVOKESTATIC && owner.equals(NATIVES) && n.equals("objectFieldOffset") && d.equals(DESC)) {
                    owner = "java/lang/invoke/VbdMethodHandles";
                }
                super.visitMethodInsn(opcode, owner, n, d, itf);
            }
        };
    }
}
