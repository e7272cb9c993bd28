package dev.vbd.litmus.bulk;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * The indirect paths to {@code System.arraycopy} and {@code Arrays.fill} that several tests of this
 * package store through, none of them a call site of those methods in the tests' own bytecode:
 * method handles from {@code lookup()}, {@code publicLookup()} and {@code unreflect}, called with
 * {@code invokeExact}, and {@code Method.invoke}. Each stores 1 into element 0 of an {@code int[]}.
 */
final class BulkPaths {
    /** One store of 1 into element 0, through one path. */
    interface Store {
        void one(int[] array);
    }

    private static final int[] ONE = {1};
    private static final MethodType ARRAYCOPY = MethodType.methodType(void.class, Object.class, int.class, Object.class, int.class, int.class);
    private static final MethodType FILL = MethodType.methodType(void.class, int[].class, int.class, int.class, int.class);

    static final Store ARRAYCOPY_HANDLE, ARRAYCOPY_PUBLIC_LOOKUP, ARRAYCOPY_REFLECT, FILL_HANDLE, FILL_UNREFLECT, FILL_REFLECT;

    static {
        try {
            ARRAYCOPY_HANDLE = copy(MethodHandles.lookup().findStatic(System.class, "arraycopy", ARRAYCOPY));
            ARRAYCOPY_PUBLIC_LOOKUP = copy(MethodHandles.publicLookup().findStatic(System.class, "arraycopy", ARRAYCOPY));
            ARRAYCOPY_REFLECT = reflect(System.class.getMethod("arraycopy", ARRAYCOPY.parameterArray()), true);
            FILL_HANDLE = fill(MethodHandles.lookup().findStatic(Arrays.class, "fill", FILL));
            FILL_UNREFLECT = fill(MethodHandles.lookup().unreflect(Arrays.class.getMethod("fill", FILL.parameterArray())));
            FILL_REFLECT = reflect(Arrays.class.getMethod("fill", FILL.parameterArray()), false);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private BulkPaths() {}

    // invokeExact declares Throwable; the actors may not
    private static Store copy(MethodHandle h) {
        return array -> {
            try {
                h.invokeExact((Object) ONE, 0, (Object) array, 0, 1);
            } catch (Throwable t) {
                throw new AssertionError(t);
            }
        };
    }

    private static Store fill(MethodHandle h) {
        return array -> {
            try {
                h.invokeExact(array, 0, 1, 1);
            } catch (Throwable t) {
                throw new AssertionError(t);
            }
        };
    }

    // Method.invoke wraps what the callee throws
    private static Store reflect(Method m, boolean arraycopy) {
        return array -> {
            try {
                if (arraycopy) m.invoke(null, ONE, 0, array, 0, 1);
                else m.invoke(null, array, 0, 1, 1);
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
        };
    }
}
