package dev.vbd.core.rewrite.jdk;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.util.Map;

/**
 * Every call of the natives that define a class from bytes, {@code ClassLoader.defineClass0}
 * (hidden classes and {@code Lookup.defineClass}), {@code defineClass1} and {@code defineClass2}
 * (class loaders), calls {@code java.lang.VbdDefineClass} instead, with the same arguments: the
 * class file passes through vbd's rewriter first. For hidden classes, which the JVM shows to no
 * agent, that is always so; for the others, when the prepared runtime image rewrites without an
 * agent.
 */
final class DefineClassPatch extends ClassVisitor {
    static final String HOOK = "java/lang/VbdDefineClass";
    private static final String LOADER = "java/lang/ClassLoader";
    private static final Map<String, String> NATIVES = Map.of(
            "defineClass0", "(Ljava/lang/ClassLoader;Ljava/lang/Class;Ljava/lang/String;[BIILjava/security/ProtectionDomain;ZILjava/lang/Object;)Ljava/lang/Class;",
            "defineClass1", "(Ljava/lang/ClassLoader;Ljava/lang/String;[BIILjava/security/ProtectionDomain;Ljava/lang/String;)Ljava/lang/Class;",
            "defineClass2", "(Ljava/lang/ClassLoader;Ljava/lang/String;Ljava/nio/ByteBuffer;IILjava/security/ProtectionDomain;Ljava/lang/String;)Ljava/lang/Class;");

    DefineClassPatch(ClassVisitor next) {
        super(Opcodes.ASM9, next);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        return new MethodVisitor(Opcodes.ASM9, super.visitMethod(access, name, descriptor, signature, exceptions)) {
            @Override
            public void visitMethodInsn(int opcode, String owner, String mName, String mDesc, boolean isInterface) {
                if (opcode == Opcodes.INVOKESTATIC && owner.equals(LOADER) && mDesc.equals(NATIVES.get(mName))) {
                    owner = HOOK;
                }
                super.visitMethodInsn(opcode, owner, mName, mDesc, isInterface);
            }
        };
    }
}
