package dev.vbd.litmus.unsafe;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import sun.misc.Unsafe;

/**
 * The three indirect paths to {@code sun.misc.Unsafe}'s plain {@code putInt} and {@code getInt} that
 * the tests of this package race through, none of them a call site in the tests' own bytecode: bound
 * method references (the calls run in lambda proxies, hidden classes), {@code findVirtual} method
 * handles, and {@code Method.invoke}.
 */
final class UnsafePaths {
    /** A plain store of 1 and a plain load, at an offset of an object. */
    interface Access {
        void put(Object o, long offset);

        int get(Object o, long offset);
    }

    interface PutInt {
        void putInt(Object o, long offset, int value);
    }

    interface GetInt {
        int getInt(Object o, long offset);
    }

    static final Unsafe U;
    static final Access METHOD_REF, METHOD_HANDLE, REFLECTION;
    /** Offsets of elements 0 and 1 of an {@code int[]}. */
    static final long INT_ARRAY_0, INT_ARRAY_1;

    static {
        try {
            Field f = Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            U = (Unsafe) f.get(null);
            INT_ARRAY_0 = U.arrayBaseOffset(int[].class);
            INT_ARRAY_1 = INT_ARRAY_0 + U.arrayIndexScale(int[].class);
            METHOD_REF = methodReferences();
            METHOD_HANDLE = methodHandles();
            REFLECTION = reflection();
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private UnsafePaths() {}

    static long field(Class<?> c, String name) {
        try {
            return U.objectFieldOffset(c.getDeclaredField(name));
        } catch (NoSuchFieldException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static Access methodReferences() {
        PutInt put = U::putInt;
        GetInt get = U::getInt;
        return new Access() {
            @Override public void put(Object o, long offset) { put.putInt(o, offset, 1); }
            @Override public int get(Object o, long offset) { return get.getInt(o, offset); }
        };
    }

    private static Access methodHandles() throws ReflectiveOperationException {
        MethodHandles.Lookup l = MethodHandles.lookup();
        MethodHandle put = l.findVirtual(Unsafe.class, "putInt", MethodType.methodType(void.class, Object.class, long.class, int.class)).bindTo(U);
        MethodHandle get = l.findVirtual(Unsafe.class, "getInt", MethodType.methodType(int.class, Object.class, long.class)).bindTo(U);
        // invokeExact declares Throwable; the actors may not
        return new Access() {
            @Override
            public void put(Object o, long offset) {
                try {
                    put.invokeExact(o, offset, 1);
                } catch (Throwable t) {
                    throw new AssertionError(t);
                }
            }

            @Override
            public int get(Object o, long offset) {
                try {
                    return (int) get.invokeExact(o, offset);
                } catch (Throwable t) {
                    throw new AssertionError(t);
                }
            }
        };
    }

    private static Access reflection() throws ReflectiveOperationException {
        Method put = Unsafe.class.getMethod("putInt", Object.class, long.class, int.class);
        Method get = Unsafe.class.getMethod("getInt", Object.class, long.class);
        // Method.invoke wraps what the callee throws
        return new Access() {
            @Override
            public void put(Object o, long offset) {
                try {
                    put.invoke(U, o, offset, 1);
                } catch (ReflectiveOperationException e) {
                    throw new AssertionError(e);
                }
            }

            @Override
            public int get(Object o, long offset) {
                try {
                    return (int) get.invoke(U, o, offset);
                } catch (ReflectiveOperationException e) {
                    throw new AssertionError(e);
                }
            }
        };
    }
}
