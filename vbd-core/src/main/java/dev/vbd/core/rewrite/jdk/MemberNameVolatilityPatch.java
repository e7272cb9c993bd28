package dev.vbd.core.rewrite.jdk;

import org.objectweb.asm.MethodVisitor;

/**
 * Patches {@code java.lang.invoke.MemberName.isVolatile()} to count as volatile a field that vbd
 * makes sequentially consistent while the JVM sees it plain (fenced fields). {@code DirectMethodHandle}
 * chooses a field getter's or setter's access mode from it, and core reflection is built on those
 * handles from JDK 18 on, so {@code findGetter}, {@code unreflectSetter} and {@code Field.get}/{@code set}
 * access such a field as volatile, as they do a field vbd declared volatile.
 */
public final class MemberNameVolatilityPatch extends DeclaredModifiersPatch {
    MemberNameVolatilityPatch(MethodVisitor next) {
        super(next, MemberNameFinalityPatch.OWNER, "flags", "access");
    }

    /** Whether {@code name+descriptor} of {@code owner} is the method this patch applies to. */
    public static boolean applies(String owner, String name, String descriptor) {
        return owner.equals(MemberNameFinalityPatch.OWNER) && name.equals("isVolatile") && descriptor.equals("()Z");
    }
}
