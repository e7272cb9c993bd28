package java.lang;

import java.security.ProtectionDomain;
import java.util.concurrent.atomic.VbdRuntime;

import jdk.internal.vm.annotation.Hidden;

/**
 * The JDK's native define path, {@code ClassLoader.defineClass0}, with vbd's rewrite in front of it
 * for hidden classes. Every {@code Lookup.defineHiddenClass}, lambda proxy and framework-spun
 * hidden class passes here, and the JVM shows none of them to agents. vbd's preparation of
 * java.base redirects the JDK's one call of {@code defineClass0} here.
 */
final class VbdHiddenClasses {
    /** {@code java.lang.invoke.MethodHandleNatives.Constants.HIDDEN_CLASS}, the same in JDK 17 and later. */
    private static final int HIDDEN_CLASS = 0x2;

    private VbdHiddenClasses() {}

    @Hidden
    static Class<?> defineClass0(ClassLoader loader, Class<?> lookup, String name, byte[] b, int off, int len,
                                 ProtectionDomain pd, boolean initialize, int flags, Object classData) {
        if ((flags & HIDDEN_CLASS) != 0 && lookup != null) {
            byte[] in = off == 0 && len == b.length ? b : java.util.Arrays.copyOfRange(b, off, off + len);
            byte[] out = VbdRuntime.rewriteHidden(lookup, in);
            if (out != null) {
                b = out;
                off = 0;
                len = out.length;
            }
        }
        return ClassLoader.defineClass0(loader, lookup, name, b, off, len, pd, initialize, flags, classData);
    }
}
