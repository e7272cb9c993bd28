package jdk.internal.misc;

import jdk.internal.vm.annotation.ForceInline;
import jdk.internal.vm.annotation.Hidden;
import jdk.internal.vm.annotation.Stable;

/**
 * The fences behind {@code java.util.concurrent.atomic.VbdRuntime}. Rewritten JDK code runs
 * from the VM's first Java call, before the VM has filled in {@link UnsafeConstants}; touching
 * {@link Unsafe} then would initialise it with wrong constants. Until those constants are in,
 * the VM is still single-threaded and the fences are skipped; afterwards {@code U} is a
 * {@code @Stable} constant that C1 and C2 fold, leaving one barrier per call.
 */
public final class VbdFences {
    @Stable
    private static Unsafe U;

    private VbdFences() {}

    @Hidden
    @ForceInline
    public static void acquire() {
        Unsafe u = U;
        if (u == null) u = lazy();
        if (u != null) u.loadFence();
    }

    @Hidden
    @ForceInline
    public static void release() {
        Unsafe u = U;
        if (u == null) u = lazy();
        if (u != null) u.storeFence();
    }

    @Hidden
    @ForceInline
    public static void full() {
        Unsafe u = U;
        if (u == null) u = lazy();
        if (u != null) u.fullFence();
    }

    @Hidden
    private static Unsafe lazy() {
        if (UnsafeConstants.ADDRESS_SIZE0 == 0) {
            return null; // VM start-up: one thread, constants not yet injected
        }
        Unsafe u = Unsafe.getUnsafe();
        U = u;
        return u;
    }
}
