package dev.vbd.agent;

import dev.vbd.core.ClassBytesSource;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.lang.ref.WeakReference;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Class bytes as a class loader would find them: the original, not-yet-rewritten bytes for
 * application classes, and the prepared (marked) bytes for the JDK's own classes.
 *
 * <p>The loader is held weakly: the transformer keeps one rewriter (and so one source) per
 * loader in a weak map, and a strong reference here would keep every loader, and every class it
 * defined, alive for good. A loader that is gone has no classes left to rewrite.
 *
 * <p>Reading a resource may load classes (a loader's own code, a URL handler, a decoder). The JVM
 * never calls a transformer again on a thread that is already in one: a class defined there
 * would run unrewritten. So a loader other than the JDK's own is read on a helper thread, where
 * such a class is rewritten as usual, and lookups the helper's nested rewrite makes answer
 * "unknown" (the rewriter treats unknown classes conservatively). Should the helper block on a
 * lock that a thread waiting for such a read holds (a loader that is not parallel-capable locks
 * itself while it defines a class), the read answers "unknown" instead of deadlocking.
 *
 * <p>A program that defines classes through a fresh loader each time (a script engine compiling
 * each script into a loader of its own) gets a fresh rewriter, with nothing cached, for each; the
 * rewriter asks for the package's {@code package-info} and the superclasses, and a name the class
 * path lacks is looked for in every entry of it, every time. So a source remembers what its loader
 * does not have, and the source of a loader that asks its parent first, as
 * {@link ClassLoader#getResource} does, asks the parent's source first: a name the parent lacks
 * costs the loader only its own lookup ({@code findResource}). Both give the answer the loader's
 * {@code getResourceAsStream} gives. A name remembered as missing that appears later stays missing
 * here, which only makes the rewriter more conservative.
 */
final class LoaderBytesSource implements ClassBytesSource {
    /** Threads waiting for a helper's read: a helper blocked by one of them must not be waited for. */
    private static final Set<Long> WAITING = ConcurrentHashMap.newKeySet();
    /**
     * A helper that stays blocked this many polls in a row (a millisecond each) on something no
     * lock owner explains, such as a class that a waiting thread is initialising, is given up on.
     */
    private static final int STUCK_POLLS = 2000;
    private static volatile ExecutorService helpers;
    private static volatile ThreadMXBean threads;

    /** {@code ClassLoader.findResource}, where this code may call it: null until looked for, then the method or NONE. */
    private static volatile Object findResource;
    private static final Object NONE = new Object();

    private final WeakReference<ClassLoader> loader;
    private final boolean boot;
    private final boolean onHelper;
    /** Whether the define path may be re-entered: classes are loaded on this thread ({@link #resolve}). */
    private final boolean onThisThread;
    /** The source of the loader's parent, when the loader asks its parent first ({@link #asksParentFirst}). */
    private final LoaderBytesSource parent;
    /** Resources the loader does not have. */
    private final Set<String> missing = ConcurrentHashMap.newKeySet();

    /** A source that asks the loader alone. */
    LoaderBytesSource(ClassLoader loader, boolean onThisThread) {
        this(loader, onThisThread, null);
    }

    /**
     * {@code onThisThread}: read where asked; for a define path that, unlike an agent's, may be
     * re-entered. {@code parent}: the source of the loader's parent, for a loader that
     * {@linkplain #asksParentFirst asks its parent first}; else null.
     */
    LoaderBytesSource(ClassLoader loader, boolean onThisThread, LoaderBytesSource parent) {
        this.loader = loader == null ? null : new WeakReference<>(loader);
        this.boot = loader == null;
        this.onHelper = !onThisThread && loader != null && !isJdkLoader(loader);
        this.onThisThread = onThisThread;
        this.parent = parent;
    }

    /**
     * Whether the loader's {@code getResourceAsStream} is the parent's answer if it has one, else the
     * loader's own {@code findResource}: it has a parent and keeps {@link ClassLoader}'s lookup
     * ({@link URLClassLoader} only adds bookkeeping to the stream). The JDK's loaders are read directly.
     */
    static boolean asksParentFirst(ClassLoader l) {
        try {
            return l != null && l.getParent() != null && !isJdkLoader(l) && KEEPS_LOOKUP.get(l.getClass());
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Per loader class, once: a script engine makes thousands of loaders of one class. */
    private static final ClassValue<Boolean> KEEPS_LOOKUP = new ClassValue<Boolean>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            try {
                Class<?> get = type.getMethod("getResource", String.class).getDeclaringClass();
                Class<?> stream = type.getMethod("getResourceAsStream", String.class).getDeclaringClass();
                return get == ClassLoader.class && (stream == ClassLoader.class || stream == URLClassLoader.class);
            } catch (NoSuchMethodException | RuntimeException e) {
                return false;
            }
        }
    };

    /** The JDK's own loaders define nothing but the JDK's classes, which the prepared JDK has rewritten. */
    private static boolean isJdkLoader(ClassLoader l) {
        return l == ClassLoader.getPlatformClassLoader()
                || (l.getClass().getModule() == Object.class.getModule() && l.getClass().getName().startsWith("jdk.internal.loader."));
    }

    @Override
    public byte[] find(String internalName) {
        if (CircularityGuard.inside(CircularityGuard.Work.READING_CLASS_FILE)) return null;
        ClassLoader l = boot ? null : loader.get();
        if (!boot && l == null) return null;
        String resource = internalName + ".class";
        if (missing.contains(resource)) return null;
        boolean ownOnly = false;
        if (parent != null) {
            byte[] b = parent.find(internalName);
            if (b != null) return b;
            ownOnly = parent.missing.contains(resource);
        }
        if (!onHelper) return read(l, resource, ownOnly);
        boolean own = ownOnly;
        return onHelper(() -> read(l, resource, own));
    }

    /**
     * The class the loader links for this name, loaded (not initialised) the way the JVM resolves
     * a superclass, through the loader's {@code loadClass}: the JVM would load it next anyway, to
     * define the class that names it. Null when it cannot be had, here or at all.
     *
     * <p>With an agent, on a helper thread: a class the JVM defines on a thread already in a
     * transformer is never shown to it; and this thread may be defining that very class further up
     * its stack, which the helper, waiting for its loading lock, is given up on for. On a define
     * path that may be re-entered (a runtime image's), on this thread, but only the superclass of
     * the class this thread rewrites innermost ({@link Defining}); any other is not known yet.
     */
    Class<?> resolve(String internalName) {
        ClassLoader l = boot ? null : loader.get();
        if (!boot && l == null) return null;
        String binaryName = internalName.replace('/', '.');
        if (!onThisThread) return onHelper(() -> load(binaryName, l));
        return Defining.nextSuperclass(internalName) ? load(binaryName, l) : null;
    }

    private static Class<?> load(String binaryName, ClassLoader l) {
        try {
            return Class.forName(binaryName, false, l);
        } catch (ClassNotFoundException | LinkageError | RuntimeException e) {
            return null;
        }
    }

    /** Runs {@code task} on a helper thread and waits for it; null when the helper cannot finish. */
    private static <T> T onHelper(Supplier<T> task) {
        AtomicReference<Thread> helper = new AtomicReference<>();
        CompletableFuture<T> read = CompletableFuture.supplyAsync(() -> {
            helper.set(Thread.currentThread());
            return task.get();
        }, helpers());
        long self = Thread.currentThread().getId();
        WAITING.add(self);
        try {
            int stuck = 0;
            while (true) {
                try {
                    return read.get(1, TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    Thread h = helper.get();
                    Thread.State state = h == null ? Thread.State.RUNNABLE : h.getState();
                    if (state == Thread.State.RUNNABLE || state == Thread.State.NEW) {
                        stuck = 0;
                    } else if (blockedByAWaiter(h) || ++stuck > STUCK_POLLS) {
                        return null;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (ExecutionException e) {
            return null;
        } finally {
            WAITING.remove(self);
        }
    }

    /**
     * The resource's bytes as the loader's {@code getResourceAsStream} gives them; null if it has
     * none (then remembered) or cannot be read. {@code ownOnly}: the parent is known to lack it, so
     * only the loader's own lookup can find it.
     */
    private byte[] read(ClassLoader l, String resource, boolean ownOnly) {
        CircularityGuard.enter(CircularityGuard.Work.READING_CLASS_FILE);
        try {
            if (ownOnly) {
                Boolean own = hasOwn(l, resource);
                if (own == Boolean.FALSE) {
                    missing.add(resource);
                    return null;
                }
            }
            // the loader's own stream even where findResource found it: the loader may track what it opens
            try (InputStream in = l == null ? ClassLoader.getSystemResourceAsStream(resource) : l.getResourceAsStream(resource)) {
                if (in == null) {
                    missing.add(resource);
                    return null;
                }
                return in.readAllBytes();
            }
        } catch (IOException | ReflectiveOperationException | RuntimeException | LinkageError | StackOverflowError e) {
            return null;
        } finally {
            CircularityGuard.exit(CircularityGuard.Work.READING_CLASS_FILE);
        }
    }

    /** Whether the loader's own {@code findResource} has the resource; null where this code cannot ask it. */
    private static Boolean hasOwn(ClassLoader l, String resource) throws ReflectiveOperationException {
        if (l instanceof URLClassLoader) return ((URLClassLoader) l).findResource(resource) != null;
        Object m = findResource;
        if (m == null) {
            try {
                Method found = ClassLoader.class.getDeclaredMethod("findResource", String.class);
                found.setAccessible(true);
                m = found;
            } catch (ReflectiveOperationException | RuntimeException e) {
                m = NONE; // vbd's agent, outside java.base, may not open ClassLoader's protected methods
            }
            findResource = m;
        }
        return m == NONE ? null : ((Method) m).invoke(l, resource) != null;
    }

    /** Whether the helper waits for a lock held by a thread that waits for a helper: it would never get it. */
    private static boolean blockedByAWaiter(Thread helper) {
        ThreadInfo info = threads().getThreadInfo(helper.getId());
        return info != null && info.getLockOwnerId() >= 0 && WAITING.contains(info.getLockOwnerId());
    }

    private static ExecutorService helpers() {
        ExecutorService h = helpers;
        if (h != null) return h;
        synchronized (LoaderBytesSource.class) {
            if (helpers == null) {
                // as many helpers as concurrent reads: one read never waits behind another
                helpers = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 10, TimeUnit.SECONDS, new SynchronousQueue<>(),
                        LoaderBytesSource::newHelper);
            }
            return helpers;
        }
    }

    /**
     * A helper thread that keeps no application loader alive: no context loader, and an access
     * control context captured inside vbd's own code rather than the application's frames.
     */
    @SuppressWarnings("removal")
    private static Thread newHelper(Runnable r) {
        return java.security.AccessController.doPrivileged((java.security.PrivilegedAction<Thread>) () -> {
            Thread t = new Thread(r, "vbd-class-bytes");
            t.setDaemon(true);
            t.setContextClassLoader(null);
            return t;
        });
    }

    private static ThreadMXBean threads() {
        ThreadMXBean t = threads;
        if (t == null) threads = t = ManagementFactory.getThreadMXBean();
        return t;
    }
}
