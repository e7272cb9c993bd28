package dev.vbd.core.rewrite.jdk;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Passes each read of a member's JVM flags in one JDK method through
 * {@code VbdFieldModifiers}, which answers with the modifiers the field was declared with. The
 * method must be an instance method of a class with {@code clazz} and {@code name} fields
 * naming the member (both {@code Field} and {@code MemberName} have them).
 */
abstract class DeclaredModifiersPatch extends MethodVisitor {
    static final String MODIFIERS = "java/util/concurrent/atomic/VbdFieldModifiers";
    static final String ADJUST_DESC = "(ILjava/lang/Class;Ljava/lang/String;)I";

    private final String owner;
    private final String flagsField;
    private final String adjust;

    DeclaredModifiersPatch(MethodVisitor next, String owner, String flagsField, String adjust) {
        super(Opcodes.ASM9, next);
        this.owner = owner;
        this.flagsField = flagsField;
        this.adjust = adjust;
    }

    @Override
    public void visitFieldInsn(int opcode, String fieldOwner, String name, String descriptor) {
        super.visitFieldInsn(opcode, fieldOwner, name, descriptor);
        if (opcode == Opcodes.GETFIELD && fieldOwner.equals(owner) && name.equals(flagsField) && descriptor.equals("I")) {
            super.visitVarInsn(Opcodes.ALOAD, 0);
            super.visitFieldInsn(Opcodes.GETFIELD, owner, "clazz", "Ljava/lang/Class;");
            super.visitVarInsn(Opcodes.ALOAD, 0);
            super.visitFieldInsn(Opcodes.GETFIELD, owner, "name", "Ljava/lang/String;");
            super.visitMethodInsn(Opcodes.INVOKESTATIC, MODIFIERS, adjust, ADJUST_DESC, false);
        }
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
        // the flags stay on the stack under the two pushed arguments
        super.visitMaxs(maxStack + 2, maxLocals);
    }
}
