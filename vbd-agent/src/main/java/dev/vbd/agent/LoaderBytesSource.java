package dev.vbd.agent;

import dev.vbd.core.ClassBytesSource;

import java.io.IOException;
import java.io.InputStream;
import java.lang.ref.WeakReference;

/**
 * Class bytes as a class loader would find them: the original, not-yet-rewritten bytes for
 * application classes, and the prepared (marked) bytes for the JDK's own classes.
 *
 * <p>The loader is held weakly: the transformer keeps one rewriter (and so one source) per
 * loader in a weak map, and a strong reference here would keep every loader, and every class it
 * defined, alive for good. A loader that is gone has no classes left to rewrite.
 *
 * <p>Reading a resource may load classes (a loader's own code, a URL handler, a decoder), and
 * their definition re-enters the transformer on this thread. Lookups made while this thread is
 * already reading bytes answer "unknown", which the rewriter treats conservatively; the nested
 * class itself is still rewritten.
 */
final class LoaderBytesSource implements ClassBytesSource {
    private static final ThreadLocal<Boolean> READING = new ThreadLocal<>();

    private final WeakReference<ClassLoader> loader;
    private final boolean boot;

    LoaderBytesSource(ClassLoader loader) {
        this.loader = loader == null ? null : new WeakReference<>(loader);
        this.boot = loader == null;
    }

    @Override
    public byte[] find(String internalName) {
        if (READING.get() != null) return null;
        ClassLoader l = null;
        if (!boot) {
            l = loader.get();
            if (l == null) return null;
        }
        String resource = internalName + ".class";
        READING.set(Boolean.TRUE);
        try (InputStream in = boot ? ClassLoader.getSystemResourceAsStream(resource) : l.getResourceAsStream(resource)) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException | RuntimeException | LinkageError | StackOverflowError e) {
            return null;
        } finally {
            READING.remove();
        }
    }

    /** Whether this thread is reading class bytes for the rewriter (for tests). */
    static boolean reading() {
        return READING.get() != null;
    }
}
