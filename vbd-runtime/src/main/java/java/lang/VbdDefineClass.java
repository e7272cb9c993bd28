package java.lang;

import java.nio.ByteBuffer;
import java.security.ProtectionDomain;
import java.util.concurrent.atomic.VbdRuntime;

import jdk.internal.vm.annotation.Hidden;

/**
 * The JDK's native define paths, {@code ClassLoader.defineClass0}, {@code defineClass1} and
 * {@code defineClass2}, with vbd's rewrite in front of them. Every class a class loader defines
 * from bytes, every {@code Lookup.defineClass} and {@code defineHiddenClass}, every lambda proxy
 * and framework-spun hidden class passes here, and the JVM shows none of the hidden ones to
 * agents. vbd's preparation of java.base redirects the JDK's calls of these natives here.
 */
final class VbdDefineClass {
    /** {@code java.lang.invoke.MethodHandleNatives.Constants.HIDDEN_CLASS}, the same in JDK 17 and later. */
    private static final int HIDDEN_CLASS = 0x2;

    private VbdDefineClass() {}

    @Hidden
    static Class<?> defineClass0(ClassLoader loader, Class<?> lookup, String name, byte[] b, int off, int len,
                                 ProtectionDomain pd, boolean initialize, int flags, Object classData) {
        byte[] out = (flags & HIDDEN_CLASS) != 0
                ? (lookup == null ? null : VbdRuntime.rewriteHidden(lookup, b, off, len))
                : VbdRuntime.rewriteDefined(loader, name, b, off, len);
        if (out != null) {
            b = out;
            off = 0;
            len = out.length;
        }
        return ClassLoader.defineClass0(loader, lookup, name, b, off, len, pd, initialize, flags, classData);
    }

    @Hidden
    static Class<?> defineClass1(ClassLoader loader, String name, byte[] b, int off, int len,
                                 ProtectionDomain pd, String source) {
        byte[] out = fromTheImage(loader, source) ? null : VbdRuntime.rewriteDefined(loader, name, b, off, len);
        return out == null ? ClassLoader.defineClass1(loader, name, b, off, len, pd, source)
                : ClassLoader.defineClass1(loader, name, out, 0, out.length, pd, source);
    }

    @Hidden
    static Class<?> defineClass2(ClassLoader loader, String name, ByteBuffer b, int off, int len,
                                 ProtectionDomain pd, String source) {
        if (fromTheImage(loader, source) || !VbdRuntime.rewritesDefinedClasses()) {
            return ClassLoader.defineClass2(loader, name, b, off, len, pd, source);
        }
        byte[] in = new byte[len];
        b.duplicate().position(off).get(in);
        byte[] out = VbdRuntime.rewriteDefined(loader, name, in, 0, len);
        return out == null ? ClassLoader.defineClass2(loader, name, b, off, len, pd, source)
                : ClassLoader.defineClass1(loader, name, out, 0, out.length, pd, source);
    }

    /**
     * A class of the JDK's own modules, which the prepared JDK holds rewritten already: the JDK's
     * built-in loaders define them from the runtime image ({@code jrt:}). Known without scanning
     * the class file for vbd's marker, which the first classes of a large JDK module (javac's)
     * would pay in the interpreter.
     */
    private static boolean fromTheImage(ClassLoader loader, String source) {
        return source != null && source.startsWith("jrt:/") && loader instanceof jdk.internal.loader.BuiltinClassLoader;
    }

}
