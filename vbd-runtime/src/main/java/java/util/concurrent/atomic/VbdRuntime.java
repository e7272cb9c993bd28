package java.util.concurrent.atomic;

import java.lang.invoke.CallSite;
import java.lang.invoke.ConstantCallSite;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;

import jdk.internal.misc.Unsafe;
import jdk.internal.misc.VbdFences;
import jdk.internal.vm.annotation.ForceInline;
import jdk.internal.vm.annotation.Hidden;

/**
 * Fences and bootstraps that vbd-rewritten bytecode calls (the fences themselves live in
 * {@code jdk.internal.misc.VbdFences}, beside the Unsafe they use).
 *
 * <p>It lives in java.base, in a package every module reads, because rewritten JDK code
 * runs before the module system is initialised, when only java.base classes can load.
 * The fences are the ones HotSpot itself places around a volatile access (C2's
 * MemBarAcquire, MemBarRelease, MemBarVolatile); {@code @ForceInline} makes C1 and C2
 * inline them to a single barrier node, and {@code @Hidden} keeps them out of stack traces
 * so that exceptions look exactly as on stock Java. Nothing here takes an address or an
 * offset: any code may call it without gaining a capability.
 */
public final class VbdRuntime {
    private VbdRuntime() {}

    /** After a load: later loads and stores stay after it (LoadLoad|LoadStore). */
    @Hidden
    @ForceInline
    public static void acquire() {
        Unsafe u = VbdFences.U; // one call less per fence in the interpreter
        if (u == null) u = VbdFences.lazy();
        if (u != null) u.loadFence();
    }

    /** Before a store: earlier loads and stores stay before it (LoadStore|StoreStore). */
    @Hidden
    @ForceInline
    public static void release() {
        Unsafe u = VbdFences.U; // one call less per fence in the interpreter
        if (u == null) u = VbdFences.lazy();
        if (u != null) u.storeFence();
    }

    /** After a store, and around bulk operations: a full two-way fence (StoreLoad included). */
    @Hidden
    @ForceInline
    public static void full() {
        Unsafe u = VbdFences.U; // one call less per fence in the interpreter
        if (u == null) u = VbdFences.lazy();
        if (u != null) u.fullFence();
    }

    /**
     * Bootstrap for a field access in a relaxed method whose field vbd made volatile: links to the
     * plain access mode of the field, as stock Java would compile it. {@code kind} is the JVM
     * opcode of the original instruction (GETFIELD, PUTFIELD, GETSTATIC or PUTSTATIC).
     */
    public static CallSite plainField(MethodHandles.Lookup lookup, String name, MethodType type,
                                      Class<?> owner, int kind) throws ReflectiveOperationException {
        MethodHandle mh;
        try {
            mh = plainAccessor(lookup, name, type, owner, kind);
        } catch (IllegalAccessException e) {
            // A VarHandle is refused where the bytecode's access is allowed (protected members
            // reached through a subclass): fall back to the field's own accessor, which is
            // volatile, so the access stays correct, only not relaxed.
            mh = declaredAccessor(lookup, name, type, owner, kind);
        }
        return new ConstantCallSite(mh.asType(type));
    }

    private static MethodHandle plainAccessor(MethodHandles.Lookup lookup, String name, MethodType type,
                                              Class<?> owner, int kind) throws ReflectiveOperationException {
        switch (kind) {
            case 180: // GETFIELD
                return lookup.findVarHandle(owner, name, type.returnType()).toMethodHandle(VarHandle.AccessMode.GET);
            case 181: { // PUTFIELD
                VarHandle vh = lookup.findVarHandle(owner, name, type.parameterType(1));
                if (!vh.isAccessModeSupported(VarHandle.AccessMode.SET)) {
                    vh = ownFinalField(lookup, owner, name, type.parameterType(1));
                }
                return vh.toMethodHandle(VarHandle.AccessMode.SET);
            }
            case 178: // GETSTATIC
                return lookup.findStaticVarHandle(owner, name, type.returnType()).toMethodHandle(VarHandle.AccessMode.GET);
            case 179: // PUTSTATIC
                return lookup.findStaticVarHandle(owner, name, type.parameterType(0)).toMethodHandle(VarHandle.AccessMode.SET);
            default:
                throw new IllegalArgumentException("not a field opcode: " + kind);
        }
    }

    /**
     * A class's store to its own final field that vbd made non-final (its constructor leaks
     * {@code this}): the program sees the field as final (see {@link VbdFieldModifiers}), so the
     * class's lookup gives a read-only handle, while the store itself is one the JVM verified and
     * allowed. Only the declaring class's own full-privilege lookup gets the writable handle.
     */
    private static VarHandle ownFinalField(MethodHandles.Lookup lookup, Class<?> owner, String name, Class<?> type)
            throws ReflectiveOperationException {
        if (lookup.lookupClass() != owner || !lookup.hasFullPrivilegeAccess()) {
            throw new IllegalAccessException("final field " + owner.getName() + "." + name + " is not writable from " + lookup);
        }
        return trustedLookup().findVarHandle(owner, name, type);
    }

    private static MethodHandles.Lookup trustedLookup() throws ReflectiveOperationException {
        java.lang.reflect.Field impl = MethodHandles.Lookup.class.getDeclaredField("IMPL_LOOKUP");
        impl.setAccessible(true);
        return (MethodHandles.Lookup) impl.get(null);
    }

    private static MethodHandle declaredAccessor(MethodHandles.Lookup lookup, String name, MethodType type,
                                                 Class<?> owner, int kind) throws ReflectiveOperationException {
        switch (kind) {
            case 180: return lookup.findGetter(owner, name, type.returnType());
            case 181: return lookup.findSetter(owner, name, type.parameterType(1));
            case 178: return lookup.findStaticGetter(owner, name, type.returnType());
            case 179: return lookup.findStaticSetter(owner, name, type.parameterType(0));
            default: throw new IllegalArgumentException("not a field opcode: " + kind);
        }
    }
}
