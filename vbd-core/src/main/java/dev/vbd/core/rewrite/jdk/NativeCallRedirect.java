package dev.vbd.core.rewrite.jdk;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.util.Map;

/**
 * Every static call of some natives of one JDK class calls a class of vbd's runtime instead, with the
 * same name, descriptor and arguments. Each redirect is one of the factories below.
 */
final class NativeCallRedirect extends ClassVisitor {
    static final String DEFINE_CLASS_HOOK = "java/lang/VbdDefineClass";
    static final String INVOKE_PACKAGE = "java/lang/invoke/";

    private final String from;
    private final Map<String, String> natives;
    private final String to;

    private NativeCallRedirect(ClassVisitor next, String from, Map<String, String> natives, String to) {
        super(Opcodes.ASM9, next);
        this.from = from;
        this.natives = natives;
        this.to = to;
    }

    /**
     * Every call of the natives that define a class from bytes, {@code ClassLoader.defineClass0}
     * (hidden classes and {@code Lookup.defineClass}), {@code defineClass1} and {@code defineClass2}
     * (class loaders), calls {@code java.lang.VbdDefineClass} instead: the class file passes through
     * vbd's rewriter first. For hidden classes, which the JVM shows to no agent, that is always so;
     * for the others, when the prepared runtime image rewrites without an agent.
     */
    static ClassVisitor defineClass(ClassVisitor next) {
        return new NativeCallRedirect(next, "java/lang/ClassLoader", Map.of(
                "defineClass0", "(Ljava/lang/ClassLoader;Ljava/lang/Class;Ljava/lang/String;[BIILjava/security/ProtectionDomain;ZILjava/lang/Object;)Ljava/lang/Class;",
                "defineClass1", "(Ljava/lang/ClassLoader;Ljava/lang/String;[BIILjava/security/ProtectionDomain;Ljava/lang/String;)Ljava/lang/Class;",
                "defineClass2", "(Ljava/lang/ClassLoader;Ljava/lang/String;Ljava/nio/ByteBuffer;IILjava/security/ProtectionDomain;Ljava/lang/String;)Ljava/lang/Class;"),
                DEFINE_CLASS_HOOK);
    }

    /**
     * In {@code java.lang.invoke}, a field's offset for a method handle or a VarHandle comes from
     * {@code MethodHandleNatives.objectFieldOffset(MemberName)}, a native method; its callers call
     * {@code VbdMethodHandles.objectFieldOffset} instead, which tells the speculative fields' runtime
     * first (see {@link FieldOffsetPatch}).
     */
    static ClassVisitor memberOffset(ClassVisitor next) {
        return new NativeCallRedirect(next, "java/lang/invoke/MethodHandleNatives",
                Map.of("objectFieldOffset", "(Ljava/lang/invoke/MemberName;)J"), "java/lang/invoke/VbdMethodHandles");
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        return new MethodVisitor(Opcodes.ASM9, super.visitMethod(access, name, descriptor, signature, exceptions)) {
            @Override
            public void visitMethodInsn(int opcode, String owner, String mName, String mDesc, boolean isInterface) {
                if (opcode == Opcodes.INVOKESTATIC && owner.equals(from) && mDesc.equals(natives.get(mName))) {
                    owner = to;
                }
                super.visitMethodInsn(opcode, owner, mName, mDesc, isInterface);
            }
        };
    }
}
