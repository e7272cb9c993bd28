package dev.vbd.core.rewrite.jdk;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The JDK methods that turn a VarHandle access mode into a method handle ({@code
 * VarHandle.toMethodHandle(AccessMode)}, {@code MethodHandles.varHandleInvoker} and
 * {@code varHandleExactInvoker(AccessMode, MethodType)}) first hand the mode to
 * {@code java.lang.invoke.VbdMethodHandles.noteVarHandleMode}, which records a weak one as a path
 * the verifier reports.
 */
final class VarHandleModePatch extends EntryPatch {
    static final String VAR_HANDLE = "java/lang/invoke/VarHandle";
    static final String METHOD_HANDLES = "java/lang/invoke/MethodHandles";
    private static final String MODE = "Ljava/lang/invoke/VarHandle$AccessMode;";

    private final boolean instance;

    VarHandleModePatch(ClassVisitor next, boolean instance) {
        super(next);
        this.instance = instance;
    }

    @Override
    boolean patches(String name, String descriptor) {
        return instance
                ? name.equals("toMethodHandle") && descriptor.equals("(" + MODE + ")Ljava/lang/invoke/MethodHandle;")
                : (name.equals("varHandleInvoker") || name.equals("varHandleExactInvoker"))
                        && descriptor.equals("(" + MODE + "Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/MethodHandle;");
    }

    @Override
    void emit(MethodVisitor mv) {
        mv.visitVarInsn(Opcodes.ALOAD, instance ? 1 : 0);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/invoke/VbdMethodHandles", "noteVarHandleMode",
                "(" + MODE + ")V", false);
    }

    @Override
    int stack() {
        return 1;
    }
}
