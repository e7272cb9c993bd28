package java.util.concurrent.atomic;

import java.lang.invoke.CallSite;
import java.lang.invoke.ConstantCallSite;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.MutableCallSite;
import java.lang.reflect.Field;
import java.security.AccessController;
import java.security.PrivilegedAction;

import jdk.internal.loader.ClassLoaders;
import jdk.internal.misc.Unsafe;
import jdk.internal.vm.annotation.ForceInline;
import jdk.internal.vm.annotation.Hidden;

/**
 * Speculative sequential consistency ({@code --fields speculative}): an object is accessed without
 * fences while only the thread that constructed it touches it.
 *
 * <p>The rewriter gives the topmost program class of each hierarchy a field, {@value #OWNER}, set to
 * the constructing thread on entry to each of its constructors (before {@code super(...)}, so no
 * code sees the object without it). Each hierarchy has a mode held by one {@link MutableCallSite}
 * that every rewritten access to a field of the hierarchy reaches through {@code invokedynamic}
 * ({@link #owned}). While the mode is fast the site answers whether the current thread owns the
 * object; C2 inlines it to a load and a compare, and records a dependency on the site. The first
 * access by another thread (or to an object no constructor ran for) switches the hierarchy: the
 * site's target becomes "not owned", which deoptimises the compiled code that inlined it; every
 * thread is stopped once, which makes each owner's earlier plain stores visible; then the mode is
 * slow for the rest of the run, and every access is fenced as with {@code --fields fenced}.
 *
 * <p>A store runs before its check ({@link #afterStore}): a thread the switch stops between the two
 * has its store behind it, and the stop orders it; one that checks after the stop sees slow and
 * fences. Accesses that do not pass through bytecode (reflection, method handles, VarHandles,
 * {@code Unsafe} users) switch the hierarchy when their accessor is made, through the JDK's two
 * paths to a field's offset ({@link #reflected(Class, String)}). The design and its argument are in
 * the project's docs/speculation.md.
 */
public final class VbdSpeculation {
    /** The owner field's name; a program cannot declare it ({@code $} is legal, but not this prefix by convention). */
    public static final String OWNER = "vbd$owner";

    private static final int FAST = 0, SWITCHING = 1, SLOW = 2;

    private VbdSpeculation() {}

    /**
     * Bootstrap of the {@code (Object)Z} check before a load and after a store of a field of
     * {@code fieldClass}: the hierarchy's call site, or a constant "not owned" when the hierarchy
     * has no owner field (a class the rewriter did not give one, or one defined before vbd's agent).
     */
    public static CallSite owned(MethodHandles.Lookup caller, String name, MethodType type, Class<?> fieldClass) {
        Hierarchy h = Hierarchy.of(fieldClass);
        if (h == null) return new ConstantCallSite(Hierarchy.NOT_OWNED.asType(type));
        return h.site;
    }

    /** After a load: the fence of a volatile load unless the check found the object owned. */
    @Hidden
    @ForceInline
    public static void afterLoad(boolean owned) {
        if (!owned) VbdRuntime.acquire();
    }

    /** After a store and its check: the full fence of a volatile store unless the object was owned. */
    @Hidden
    @ForceInline
    public static void afterStore(boolean owned) {
        if (!owned) VbdRuntime.full();
    }

    /**
     * The JDK's paths to a field's offset ({@code Unsafe.objectFieldOffset}, and the one method
     * handles and VarHandles use) call this first: whatever uses the offset will access the field
     * without passing a check, so its hierarchy becomes slow now.
     */
    public static void reflected(Class<?> c, String name) {
        if (c == null || OWNER.equals(name) || isJdk(c)) return;
        Hierarchy h = Hierarchy.of(c);
        if (h != null) h.toSlow();
    }

    public static void reflected(Field f) {
        if (f != null) reflected(f.getDeclaringClass(), f.getName());
    }

    /** The JDK's reflection filter calls this first: programs never see the owner field. */
    public static Field[] withoutOwner(Field[] fields) {
        int n = 0;
        for (Field f : fields) if (!f.getName().equals(OWNER)) n++;
        if (n == fields.length) return fields;
        Field[] out = new Field[n];
        int i = 0;
        for (Field f : fields) if (!f.getName().equals(OWNER)) out[i++] = f;
        return out;
    }

    /**
     * Before a call that may reach {@code Object.clone}: the copy reads every field of {@code o}
     * without a check, so another thread's object switches its hierarchy first. The copy keeps
     * {@code o}'s owner, which is this thread's or, once switched, no longer matters.
     */
    public static void beforeClone(Object o) {
        if (o == null || o.getClass().isArray()) return;
        Hierarchy h = Hierarchy.of(o.getClass());
        if (h != null && h.state != SLOW && Hierarchy.U.getReference(o, h.ownerOffset) != Thread.currentThread()) h.toSlow();
    }

    /**
     * A method handle or reflective accessor to {@code Object.clone} is being made for receivers of
     * {@code refc} (or, for protected access, of {@code caller}): the copy it makes reads fields
     * without a check, so those hierarchies become fenced. When neither names a program class
     * (reflection on {@code Object.clone} itself, which takes any receiver) speculation ends for
     * the whole run.
     */
    public static void cloneable(Class<?> refc, Class<?> caller) {
        boolean named = false;
        for (Class<?> c : new Class<?>[]{refc, caller}) {
            if (c == null || c.isArray() || c.isInterface() || isJdk(c)) continue;
            named = true;
            Hierarchy h = Hierarchy.of(c);
            if (h != null) h.toSlow();
        }
        if (!named && (refc == null || !refc.isArray())) Hierarchy.endAll();
    }

    /** Whether the hierarchy of {@code fieldClass} is still fast; for tests and reports. */
    public static boolean fast(Class<?> fieldClass) {
        Hierarchy h = Hierarchy.of(fieldClass);
        return h != null && h.state == FAST;
    }

    private static boolean isJdk(Class<?> c) {
        ClassLoader l = c.getClassLoader();
        return l == null || l == ClassLoaders.platformClassLoader();
    }

    /** The mode of one hierarchy: the classes below its topmost class that declares the owner field. */
    static final class Hierarchy {
        /** Here, not in the outer class: the JDK's start-up calls the outer class before Unsafe may be used. */
        static final Unsafe U = Unsafe.getUnsafe();
        private static final long STATE = U.objectFieldOffset(Hierarchy.class, "state");
        static final MethodHandle OWNED;
        static final MethodHandle NOT_OWNED;
        static {
            try {
                MethodHandles.Lookup l = MethodHandles.lookup();
                OWNED = l.findStatic(Hierarchy.class, "owned",
                        MethodType.methodType(boolean.class, Object.class, long.class, Hierarchy.class));
                NOT_OWNED = MethodHandles.dropArguments(MethodHandles.constant(boolean.class, false), 0, Object.class);
            } catch (ReflectiveOperationException e) {
                throw new InternalError(e);
            }
        }

        private static final ClassValue<Hierarchy> BY_CLASS = new ClassValue<>() {
            @Override
            protected Hierarchy computeValue(Class<?> c) {
                Class<?> root = null;
                long offset = -1;
                for (Class<?> k = c; k != null && !isJdk(k); k = k.getSuperclass()) {
                    long o = ownerOffset(k);
                    if (o >= 0) {
                        root = k;
                        offset = o;
                    }
                }
                if (root == null) return NONE;
                return root == c ? new Hierarchy(offset) : of(root);
            }
        };
        private static final Hierarchy NONE = new Hierarchy(-1);
        /** Every hierarchy made, for {@link #endAll}; weakly held, as the classes are. */
        private static final java.util.Map<Hierarchy, Boolean> ALL =
                java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());
        private static volatile boolean ended;

        final MutableCallSite site;
        final long ownerOffset;
        private volatile int state = FAST;

        private Hierarchy(long ownerOffset) {
            this.ownerOffset = ownerOffset;
            site = ownerOffset < 0 ? null
                    : new MutableCallSite(MethodHandles.insertArguments(OWNED, 1, ownerOffset, this));
            if (site != null) {
                ALL.put(this, Boolean.TRUE);
                if (ended) { // no code has reached the site yet: nothing to stop
                    site.setTarget(NOT_OWNED);
                    state = SLOW;
                }
            }
        }

        /** Speculation ends for the run: every hierarchy, and every one made from now on, is fenced. */
        static void endAll() {
            if (ended) return;
            ended = true;
            Hierarchy[] all;
            synchronized (ALL) {
                all = ALL.keySet().toArray(new Hierarchy[0]);
            }
            for (Hierarchy h : all) h.toSlow();
        }

        static Hierarchy of(Class<?> c) {
            if (c.isInterface() || c.isArray() || c.isPrimitive()) return null;
            Hierarchy h = BY_CLASS.get(c);
            return h == NONE ? null : h;
        }

        /** The offset of the owner field {@code c} declares, or -1. */
        private static long ownerOffset(Class<?> c) {
            try {
                return U.objectFieldOffset(c, OWNER);
            } catch (InternalError e) {
                return -1; // not declared here
            }
        }

        /** The fast target: whether this thread constructed {@code o}; if not, the hierarchy becomes slow. */
        @Hidden
        @ForceInline
        private static boolean owned(Object o, long ownerOffset, Hierarchy h) {
            if (o != null && U.getReference(o, ownerOffset) == Thread.currentThread()) return true;
            if (o != null) h.toSlow(); // null: the access itself throws
            return false;
        }

        void toSlow() {
            int s = state;
            if (s == SLOW) return;
            if (s == FAST && U.compareAndSetInt(this, STATE, FAST, SWITCHING)) {
                site.setTarget(NOT_OWNED);
                stopEveryThread();
                state = SLOW;
                return;
            }
            while (state != SLOW) Thread.onSpinWait();
        }

        /**
         * Brings every thread to a stop, and so past a full fence, once: a thread dump is taken with
         * all threads stopped. The call site's own deoptimisation stops only threads that run
         * dependent compiled code, and only if there is any.
         */
        @SuppressWarnings("removal")
        private static void stopEveryThread() {
            AccessController.doPrivileged(new PrivilegedAction<Void>() {
                @Override
                public Void run() {
                    Thread.getAllStackTraces();
                    return null;
                }
            });
        }
    }
}
