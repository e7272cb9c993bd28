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
 * {@code System.arraycopy} through a fenced twin in vbd's runtime.
 */
public final class BulkOperations {
    private static final Set<String> FENCED_BODIES = Set.of(
            "java/util/Arrays.fill", "java/util/Arrays.copyOf", "java/util/Arrays.copyOfRange",
            "jdk/internal/misc/Unsafe.copyMemory", "jdk/internal/misc/Unsafe.copySwapMemory",
            "jdk/internal/misc/Unsafe.setMemory");

    private BulkOperations() {}

    /** A call site that needs a full fence on each side. */
    public static boolean isBulk(String owner, String name, String desc) {
        // clone() copies every field or element of its receiver
        if (name.equals("clone") && desc.startsWith("()")) return true;
        return owner.equals("java/lang/System") && name.equals("arraycopy")
                && desc.equals("(Ljava/lang/Object;ILjava/lang/Object;II)V");
    }

    /** A JDK method whose body is fenced as a whole on entry and on every exit, and otherwise relaxed. */
    public static boolean isFencedBody(String owner, String name) {
        return FENCED_BODIES.contains(owner + "." + name);
    }
}
