package dev.vbd.agent.layout;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Set;

/**
 * Where the JVM put each field and element: offsets from the JDK's internal {@code Unsafe}, which
 * the agent opens to itself (the supported {@code sun.misc.Unsafe} would warn on Temurin 25). Used
 * only to model addresses; nothing is read or written through it.
 */
final class Offsets {
    private final Object unsafe;
    private final Method objectFieldOffset;
    private final Method staticFieldOffset;
    private final Method arrayBaseOffset;
    private final Method arrayIndexScale;
    private final ClassValue<long[]> arrays = new ClassValue<>() {
        @Override
        protected long[] computeValue(Class<?> c) {
            try {
                return new long[]{((Number) arrayBaseOffset.invoke(unsafe, c)).longValue(),
                        ((Number) arrayIndexScale.invoke(unsafe, c)).longValue()};
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
    };

    Offsets(Instrumentation inst) throws ReflectiveOperationException {
        Module base = Object.class.getModule();
        inst.redefineModule(base, Set.of(), Map.of("jdk.internal.misc", Set.of(Offsets.class.getModule())),
                Map.of(), Set.of(), Map.of());
        Class<?> u = Class.forName("jdk.internal.misc.Unsafe");
        unsafe = u.getMethod("getUnsafe").invoke(null);
        objectFieldOffset = u.getMethod("objectFieldOffset", Field.class);
        staticFieldOffset = u.getMethod("staticFieldOffset", Field.class);
        arrayBaseOffset = u.getMethod("arrayBaseOffset", Class.class);
        arrayIndexScale = u.getMethod("arrayIndexScale", Class.class);
    }

    /** The base offset and the index scale of an array class. */
    long[] array(Class<?> c) {
        return arrays.get(c);
    }

    /** The offset of an instance field, found from the class of an object that has it; -2 when it cannot be found. */
    long resolve(Targets.Target t, Class<?> of) {
        Field f = null;
        for (Class<?> c = of; c != null && f == null; c = c.getSuperclass()) {
            if (c.getName().equals(t.owner)) f = declared(c, t.name);
        }
        return remember(t, f, false);
    }

    /** The offset of a static field within its class's mirror, from the class the instruction names; -2 when it cannot be found. */
    long resolveStatic(Targets.Target t, Class<?> owner) {
        Field f = declared(owner, t.name);
        if (f != null) t.holder = f.getDeclaringClass();
        return remember(t, f, true);
    }

    private long remember(Targets.Target t, Field f, boolean isStatic) {
        long offset = -2;
        if (f != null) {
            try {
                offset = ((Number) (isStatic ? staticFieldOffset : objectFieldOffset).invoke(unsafe, f)).longValue();
                t.declaredBy = f.getDeclaringClass().getName();
            } catch (ReflectiveOperationException | RuntimeException e) {
                offset = -2;
            }
        }
        t.offset = offset;
        return offset;
    }

    /** The field as the JVM resolves a reference to it from {@code c}: the class, its interfaces, then its superclass. */
    private static Field declared(Class<?> c, String name) {
        for (; c != null; c = c.getSuperclass()) {
            try {
                return c.getDeclaredField(name);
            } catch (NoSuchFieldException | SecurityException | LinkageError e) {
                // on
            }
            for (Class<?> i : c.getInterfaces()) {
                Field f = declared(i, name);
                if (f != null) return f;
            }
        }
        return null;
    }
}
