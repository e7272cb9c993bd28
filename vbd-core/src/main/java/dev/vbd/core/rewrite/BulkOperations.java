package dev.vbd.core.rewrite;

import java.util.Set;

/**
 * Calls that read or write many heap locations at once. Each call is fenced before and after;
 * the elements inside one bulk operation are not ordered among themselves (the paper's rule
 * for memcpy), but the operation as a whole takes its place in program order.
 */
public final class BulkOperations {
    private static final Set<String> METHODS = Set.of(
            "java/lang/System.arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V",
            "jdk/internal/misc/Unsafe.copyMemory",
            "jdk/internal/misc/Unsafe.copySwapMemory",
            "jdk/internal/misc/Unsafe.setMemory",
            "sun/misc/Unsafe.copyMemory",
            "sun/misc/Unsafe.setMemory");

    private BulkOperations() {}

    public static boolean isBulk(String owner, String name, String desc) {
        if (owner.equals("java/util/Arrays")
                && (name.equals("fill") || name.equals("copyOf") || name.equals("copyOfRange"))) {
            return true;
        }
        // clone() copies every field or element of its receiver
        if (name.equals("clone") && desc.startsWith("()")) {
            return true;
        }
        return METHODS.contains(owner + "." + name + desc) || METHODS.contains(owner + "." + name);
    }
}
