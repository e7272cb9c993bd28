package dev.vbd.core.rewrite.jdk;

import org.objectweb.asm.MethodVisitor;

/**
 * Patches applied only to the JDK's own classes, so that what a program observes of its fields
 * is what it declared, while the JVM keeps vbd's flags.
 */
public final class JdkPatches {
    private JdkPatches() {}

    /** {@code next}, or a visitor that patches it, for method {@code name+descriptor} of {@code owner}. */
    public static MethodVisitor patch(String owner, String name, String descriptor, MethodVisitor next) {
        if (FieldModifiersPatch.applies(owner, name, descriptor)) return new FieldModifiersPatch(next);
        if (MemberNameFinalityPatch.applies(owner, name, descriptor)) return new MemberNameFinalityPatch(next);
        return next;
    }
}
