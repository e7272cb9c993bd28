package jdk.internal.misc;

import jdk.internal.vm.annotation.Hidden;
import jdk.internal.vm.annotation.Stable;

/**
 * The Unsafe behind {@code java.util.concurrent.atomic.VbdRuntime}'s fences. Rewritten JDK code
 * runs from the VM's first Java call, before the VM has filled in {@link UnsafeConstants};
 * touching {@link Unsafe} then would initialise it with wrong constants. Until those constants
 * are in, the VM is still single-threaded and the fences are skipped; afterwards {@code U} is a
 * {@code @Stable} constant that C1 and C2 fold, leaving one barrier per fence.
 */
public final class VbdFences {
    /** Null until the VM has injected Unsafe's constants. */
    @Stable
    public static Unsafe U;

    private VbdFences() {}

    @Hidden
    public static Unsafe lazy() {
        if (UnsafeConstants.ADDRESS_SIZE0 == 0) {
            return null; // VM start-up: one thread, constants not yet injected
        }
        Unsafe u = Unsafe.getUnsafe();
        U = u;
        return u;
    }
}
