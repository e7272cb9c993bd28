package dev.vbd.core.rewrite.jdk;

import org.objectweb.asm.MethodVisitor;

/**
 * Patches {@code java.lang.invoke.MemberName.isFinal()} and {@code getModifiers()} to report a
 * field's declared modifiers. Method handles and var handles decide a field's writability from
 * them: {@code Lookup.checkAccess} refuses a setter of a final field ({@code findSetter},
 * {@code unreflectSetter} without {@code setAccessible}, the write checks of
 * {@code findVarHandle}), {@code getFieldVarHandleCommon} skips the write check for a final field,
 * and {@code VarHandles.makeFieldHandle} makes a final field's handle read-only;
 * {@code MethodHandleInfo.getModifiers()} reports them too. {@code isVolatile()} is not declared
 * modifiers, because {@code DirectMethodHandle} chooses the access mode from it: a field vbd made
 * volatile is accessed as volatile through every handle ({@link MemberNameVolatilityPatch}). A field vbd
 * made non-final that stock Java lets a trusted lookup write ({@code setAccessible(true)}) is
 * still volatile there.
 */
public final class MemberNameFinalityPatch extends DeclaredModifiersPatch {
    public static final String OWNER = "java/lang/invoke/MemberName";

    MemberNameFinalityPatch(MethodVisitor next) {
        super(next, OWNER, "flags", "member");
    }

    /** Whether {@code name+descriptor} of {@code owner} is a method this patch applies to. */
    public static boolean applies(String owner, String name, String descriptor) {
        return owner.equals(OWNER) && ((name.equals("isFinal") && descriptor.equals("()Z"))
                || (name.equals("getModifiers") && descriptor.equals("()I")));
    }
}
