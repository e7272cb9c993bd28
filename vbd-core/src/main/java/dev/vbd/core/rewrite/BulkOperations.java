package dev.vbd.core.rewrite;

import java.util.Set;

/**
 * Operations that read or write many heap locations at once. Each is fenced as a whole, before
 * and after; the elements inside one bulk operation are not ordered among themselves (the
 * paper's rule for memcpy), but the operation as a whole takes its place in program order.
 *
 * <p>Where the operation has a Java body, the fences go into the body ({@link #isFencedBody}), so
 * that every path to it carries them: calls, method references, method handles, reflection.
 * The native ones ({@code System.arraycopy}, {@code clone()}) have no body: their call sites are
 * fenced ({@link #isBulk}), and the JDK's method handles and reflection reach
 * {@code System.arraycopy} through a fenced twin in vbd's runtime. So are the call sites of the
 * two {@code Arrays.copyOf}/{@code copyOfRange} overloads that C2 may replace by an intrinsic.
 */
public final class BulkOperations {
    private static final Set<String> FENCED_BODIES = Set.of(
            "java/util/Arrays.fill", "java/util/Arrays.copyOf", "java/util/Arrays.copyOfRange",
            "jdk/internal/misc/Unsafe.copyMemory", "jdk/internal/misc/Unsafe.copySwapMemory",
            "jdk/internal/misc/Unsafe.setMemory");

    /**
     * Fenced bodies that C2 may replace by an intrinsic of its own in a compiled caller, taking the
     * body's fences with it: their call sites are fenced too.
     */
    private static final Set<String> INTRINSIC_BODIES = Set.of(
            "java/util/Arrays.copyOf([Ljava/lang/Object;ILjava/lang/Class;)[Ljava/lang/Object;",
            "java/util/Arrays.copyOfRange([Ljava/lang/Object;IILjava/lang/Class;)[Ljava/lang/Object;");

    private BulkOperations() {}

    /** A call site that needs a full fence on each side. */
    public static boolean isBulk(String owner, String name, String desc) {
        // clone() copies every field or element of its receiver
        if (name.equals("clone") && desc.startsWith("()")) return true;
        if (owner.equals("java/lang/System") && name.equals("arraycopy")
                && desc.equals("(Ljava/lang/Object;ILjava/lang/Object;II)V")) return true;
        return INTRINSIC_BODIES.contains(owner + "." + name + desc);
    }

    /** A JDK method whose body is fenced as a whole on entry and on every exit, and otherwise relaxed. */
    public static boolean isFencedBody(String owner, String name) {
        return FENCED_BODIES.contains(owner + "." + name);
    }
}
