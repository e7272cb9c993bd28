package dev.vbd.core.rewrite.jdk;

import org.objectweb.asm.MethodVisitor;

/**
 * Patches {@code java.lang.reflect.Field.getModifiers()} to report the modifiers a field was
 * declared with. Every way a program sees a field's modifiers goes through it: {@code Modifier}
 * tests, {@code Field.toString()}/{@code toGenericString()}, {@code accessFlags()} (Java 20+), the
 * volatile check of {@code AtomicInteger/Long/ReferenceFieldUpdater}, {@code ObjectStreamClass}'s
 * default {@code serialVersionUID}, and the finality check of
 * {@code ReflectionFactory.newFieldAccessor} (so {@code Field.set} on a final field without
 * {@code setAccessible} is refused as on stock Java). The JVM's own {@code modifiers} field keeps
 * the rewritten flags: accesses stay volatile. On 17, a plain field's reflective accessor is then
 * the non-volatile {@code Unsafe} one, whose plain {@code Unsafe} calls the prepared JDK has
 * already made volatile; on 18+ reflection goes through method handles, whose volatility comes
 * from {@code MemberName}, which this patch leaves alone.
 */
public final class FieldModifiersPatch extends DeclaredModifiersPatch {
    public static final String OWNER = "java/lang/reflect/Field";

    FieldModifiersPatch(MethodVisitor next) {
        super(next, OWNER, "modifiers", "field");
    }

    /** Whether {@code name+descriptor} of {@code owner} is the method this patch applies to. */
    public static boolean applies(String owner, String name, String descriptor) {
        return owner.equals(OWNER) && name.equals("getModifiers") && descriptor.equals("()I");
    }
}
