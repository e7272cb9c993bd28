package dev.vbd.core.rewrite.jdk;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Changes to the JDK's own code, made once when the JDK is prepared, that put vbd's guarantee
 * where every path to an operation goes through, rather than at the call sites vbd rewrites, and
 * that show programs the field modifiers they declared while the JVM keeps vbd's:
 * <ul>
 * <li>{@link NativeCallRedirect#defineClass}: every class defined from bytes, hidden classes included (the JVM never
 *     shows those to agents), passes through vbd's rewriter on its way to the JVM;</li>
 * <li>{@link MethodHandleTwinPatch} and {@link ArgumentPatch#reflectionTwin}: method handles and reflection
 *     reach native operations that have no body to fence ({@code System.arraycopy}, the weak modes
 *     of {@code jdk.internal.misc.Unsafe}) through their fenced or volatile twins;</li>
 * <li>{@link ArgumentPatch#reflectiveField} and {@link MethodHandleTwinPatch}: reflection and method handles on a
 *     field the JVM keeps plain (its class was defined before vbd's agent) are recorded for the
 *     verifier;</li>
 * <li>{@link FieldModifiersPatch} and {@link MemberNameFinalityPatch}: reflection, updaters,
 *     serialization and method-handle access checks see the declared modifiers;</li>
 * <li>{@link MemberNameVolatilityPatch}: method handles, and the reflection built on them, access a
 *     fenced field (plain in the JVM) as volatile;</li>
 * <li>{@link ClassLoaderAppendPatch}: a custom system class loader can take vbd's agent;</li>
 * <li>{@link StartUpPatch}: a runtime image starts its own rewriting at the end of the JVM's start-up;</li>
 * <li>{@link VarHandleModePatch}: a VarHandle's weak mode turned into a method handle is recorded
 *     for the verifier;</li>
 * <li>{@link FieldOffsetPatch} and {@link NativeCallRedirect#memberOffset}: every path to a field's offset (and so
 *     every access that bypasses bytecode) makes the field's hierarchy fenced under speculative
 *     fields, and {@link ArgumentPatch#ownerFieldFilter} hides the owner field those add from reflection.</li>
 * </ul>
 */
public final class JdkPatches {
    private JdkPatches() {}

    /** The class visitor that applies the patches this JDK class needs, in front of {@code next}. */
    public static ClassVisitor wrap(String className, ClassVisitor next) {
        ClassVisitor cv = new MethodPatches(className, next);
        if (className.startsWith("java/lang/")) cv = NativeCallRedirect.defineClass(cv);
        if (className.equals(MethodHandleTwinPatch.OWNER)) cv = new MethodHandleTwinPatch(cv);
        if (className.equals(ArgumentPatch.REFLECTION_FACTORY)) cv = ArgumentPatch.reflectionTwin(cv);
        if (className.equals(ArgumentPatch.REFLECTION_FACTORY)) cv = ArgumentPatch.reflectiveField(cv);
        if (className.equals(ClassLoaderAppendPatch.OWNER)) cv = new ClassLoaderAppendPatch(cv);
        if (className.equals(StartUpPatch.OWNER)) cv = new StartUpPatch(cv);
        if (className.equals(VarHandleModePatch.VAR_HANDLE)) cv = new VarHandleModePatch(cv, true);
        if (className.equals(VarHandleModePatch.METHOD_HANDLES)) cv = new VarHandleModePatch(cv, false);
        if (className.equals(FieldOffsetPatch.OWNER)) cv = new FieldOffsetPatch(cv);
        if (className.startsWith(NativeCallRedirect.INVOKE_PACKAGE)) cv = NativeCallRedirect.memberOffset(cv);
        if (className.equals(ArgumentPatch.REFLECTION)) cv = ArgumentPatch.ownerFieldFilter(cv);
        return cv;
    }

    /**
     * The patches a JDK prepared for safe construction needs, in front of {@code next}: those that
     * route classes through vbd's rewriter and start it. With no field made volatile or fenced,
     * nothing is left for the others to hide or to reach.
     */
    public static ClassVisitor wrapForSafeConstruction(String className, ClassVisitor next) {
        ClassVisitor cv = next;
        if (className.startsWith("java/lang/")) cv = NativeCallRedirect.defineClass(cv);
        if (className.equals(ClassLoaderAppendPatch.OWNER)) cv = new ClassLoaderAppendPatch(cv);
        if (className.equals(StartUpPatch.OWNER)) cv = new StartUpPatch(cv);
        return cv;
    }

    /** {@code next}, or a visitor that patches it, for method {@code name+descriptor} of {@code owner}. */
    public static MethodVisitor patch(String owner, String name, String descriptor, MethodVisitor next) {
        if (FieldModifiersPatch.applies(owner, name, descriptor)) return new FieldModifiersPatch(next);
        if (MemberNameFinalityPatch.applies(owner, name, descriptor)) return new MemberNameFinalityPatch(next);
        if (MemberNameVolatilityPatch.applies(owner, name, descriptor)) return new MemberNameVolatilityPatch(next);
        return next;
    }

    /** Applies the method-level patches ({@link #patch}) of one class. */
    private static final class MethodPatches extends ClassVisitor {
        private final String owner;

        MethodPatches(String owner, ClassVisitor next) {
            super(Opcodes.ASM9, next);
            this.owner = owner;
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
            return patch(owner, name, descriptor, super.visitMethod(access, name, descriptor, signature, exceptions));
        }
    }
}
