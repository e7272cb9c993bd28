package dev.vbd.core.rewrite.jdk;

import org.objectweb.asm.ClassVisitor;

/**
 * Changes to the JDK's own code, made once when the JDK is prepared, that put vbd's guarantee
 * where every path to an operation goes through, rather than at the call sites vbd rewrites:
 * <ul>
 * <li>{@link HiddenClassDefinePatch}: hidden classes, which the JVM never shows to agents, pass
 *     through vbd's rewriter on their way to the JVM;</li>
 * <li>{@link MethodHandleTwinPatch} and {@link ReflectionTwinPatch}: method handles and reflection
 *     reach native operations that have no body to fence ({@code System.arraycopy}, the weak modes
 *     of {@code jdk.internal.misc.Unsafe}) through their fenced or volatile twins.</li>
 * </ul>
 */
public final class JdkPatches {
    private JdkPatches() {}

    /** The class visitor that applies the patches this JDK class needs, in front of {@code next}. */
    public static ClassVisitor wrap(String className, ClassVisitor next) {
        ClassVisitor cv = next;
        if (className.startsWith("java/lang/")) cv = new HiddenClassDefinePatch(cv);
        if (className.equals(MethodHandleTwinPatch.OWNER)) cv = new MethodHandleTwinPatch(cv);
        if (className.equals(ReflectionTwinPatch.OWNER)) cv = new ReflectionTwinPatch(cv);
        return cv;
    }
}
