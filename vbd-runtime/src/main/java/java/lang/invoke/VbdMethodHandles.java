package java.lang.invoke;

import java.util.concurrent.atomic.VbdRuntime;

import jdk.internal.misc.Unsafe;

/**
 * Direct method handles to operations that rewritten call sites fence or upgrade, but whose
 * bodies cannot carry the guarantee because they are native: {@code System.arraycopy}, and the
 * weak modes of {@code jdk.internal.misc.Unsafe}. vbd's preparation of java.base makes
 * {@code DirectMethodHandle.make}, through which every direct method handle is made (lookups,
 * {@code unreflect}, constant pool method handles, lambda metafactory arguments, reflection on
 * recent JDKs), pass its member through {@link #redirect} first.
 */
final class VbdMethodHandles {
    private static volatile MemberName arraycopy;

    private VbdMethodHandles() {}

    /**
     * The offset of a field for a method handle or a VarHandle: those access the field without
     * the check of speculative fields, so its hierarchy becomes fenced first.
     */
    static long objectFieldOffset(MemberName m) {
        java.util.concurrent.atomic.VbdSpeculation.reflected(m.getDeclaringClass(), m.getName());
        return MethodHandleNatives.objectFieldOffset(m);
    }

    static MemberName redirect(MemberName m, Class<?> refc, Class<?> caller) {
        if (m.isField()) {
            VbdRuntime.noteEarlyField(m.getDeclaringClass(), m.getName(), m.getFieldType(), m.isVolatile(), "a method handle");
            return m;
        }
        if (!m.isMethod()) return m;
        Class<?> c = m.getDeclaringClass();
        if (c == Object.class && refc != null && refc.isArray() && m.getName().equals("clone")) {
            VbdRuntime.noteUnfenced(c, "clone", new Class<?>[0], true, "a method handle");
            return m;
        }
        if (c == Object.class && m.getName().equals("clone")) {
            // the copy reads every field without the check of speculative fields
            java.util.concurrent.atomic.VbdSpeculation.cloneable(refc, caller);
            return m;
        }
        if (c == System.class) {
            if (!m.isStatic() || !m.getName().equals("arraycopy")) return m;
            MemberName t = arraycopy;
            if (t == null) {
                t = resolve(VbdRuntime.class, "arraycopy", m.getMethodType(), true);
                arraycopy = t;
            }
            return t;
        }
        if (c == java.lang.reflect.Array.class) {
            VbdRuntime.noteUnfenced(c, m.getName(), m.getMethodType().parameterArray(), false, "a method handle");
            return m;
        }
        // The JDK's own method handles on Unsafe (java.lang.invoke's field accessors) keep the mode
        // they ask for: they implement the accesses the program's bytecode already chose.
        if (c != Unsafe.class || caller == null || isJdk(caller)) return m;
        Class<?>[] params = m.getMethodType().parameterArray();
        String twin = VbdRuntime.unsafeVolatileTwin(m.getName(), params);
        if (twin == null) VbdRuntime.noteUnfenced(c, m.getName(), params, false, "a method handle");
        return twin == null ? m : resolve(Unsafe.class, twin, m.getMethodType(), false);
    }

    /**
     * Called with the access mode whenever a VarHandle access mode becomes a method handle
     * ({@code VarHandle.toMethodHandle}, {@code MethodHandles.varHandleInvoker} and
     * {@code varHandleExactInvoker}, which {@code findVirtual(VarHandle.class, ...)} uses too). A weak
     * mode there runs the VarHandle's own plain or weak access with no call site vbd could fence:
     * recorded for the verifier, except where vbd links relaxed code to it.
     */
    static void noteVarHandleMode(VarHandle.AccessMode mode) {
        String name = mode.name();
        boolean weak = name.equals("GET") || name.equals("SET") || name.endsWith("_OPAQUE")
                || name.endsWith("_ACQUIRE") || name.endsWith("_RELEASE") || name.endsWith("_PLAIN");
        if (weak && !VbdRuntime.linkingRelaxedAccess()) {
            VbdRuntime.openPath("VarHandle " + mode.methodName() + " through a method handle: a weak access without fences");
        }
    }

    private static boolean isJdk(Class<?> c) {
        ClassLoader l = c.getClassLoader();
        return l == null || l == ClassLoader.getPlatformClassLoader();
    }

    private static MemberName resolve(Class<?> owner, String name, MethodType type, boolean isStatic) {
        try {
            MethodHandles.Lookup lookup = MethodHandles.Lookup.IMPL_LOOKUP;
            MethodHandle h = isStatic ? lookup.findStatic(owner, name, type) : lookup.findVirtual(owner, name, type);
            return h.internalMemberName();
        } catch (ReflectiveOperationException e) {
            throw new InternalError("vbd: no fenced twin " + owner.getName() + "." + name + type, e);
        }
    }
}
