package dev.vbd.core.rewrite;

import dev.vbd.core.Conventions;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * In a relaxed method, an access to a field that vbd made volatile is linked to the field's
 * plain access mode (a constant VarHandle that C2 folds to a plain load or store), so the method
 * compiles as on stock Java. Fields the programmer declared volatile keep their access.
 */
final class RelaxedFieldAccessVisitor extends MethodVisitor {
    private static final Handle BSM = new Handle(Opcodes.H_INVOKESTATIC, Conventions.RUNTIME,
            Conventions.PLAIN_FIELD_BSM, Conventions.PLAIN_FIELD_BSM_DESC, false);

    private final FieldOracle oracle;
    /*
     * In a constructor, until its super(...) or this(...) call the receiver is uninitializedThis,
     * which the JVM lets only PUTFIELD touch (javac stores outer instances and captured variables
     * there, and any field since flexible constructor bodies); passing it to an invokedynamic is
     * a VerifyError. Accesses there keep their instruction. The objects created by NEW before that
     * call are initialised by their own <init> calls, counted so that they are not mistaken for it.
     */
    private boolean beforeSuperCall;
    private int pendingNews;

    RelaxedFieldAccessVisitor(MethodVisitor next, FieldOracle oracle, boolean constructor) {
        super(Opcodes.ASM9, next);
        this.oracle = oracle;
        this.beforeSuperCall = constructor;
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
        if (beforeSuperCall && opcode == Opcodes.NEW) pendingNews++;
        super.visitTypeInsn(opcode, type);
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
        if (beforeSuperCall && opcode == Opcodes.INVOKESPECIAL && name.equals("<init>")) {
            if (pendingNews > 0) {
                pendingNews--;
            } else {
                beforeSuperCall = false;
            }
        }
        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
        if (beforeSuperCall || !oracle.madeVolatile(owner, name, descriptor)) {
            super.visitFieldInsn(opcode, owner, name, descriptor);
            return;
        }
        String ownerDesc = Type.getObjectType(owner).getDescriptor();
        String type = switch (opcode) {
            case Opcodes.GETFIELD -> "(" + ownerDesc + ")" + descriptor;
            case Opcodes.PUTFIELD -> "(" + ownerDesc + descriptor + ")V";
            case Opcodes.GETSTATIC -> "()" + descriptor;
            case Opcodes.PUTSTATIC -> "(" + descriptor + ")V";
            default -> throw new IllegalArgumentException("field opcode " + opcode);
        };
        super.visitInvokeDynamicInsn(name, type, BSM, Type.getObjectType(owner), opcode);
    }
}
