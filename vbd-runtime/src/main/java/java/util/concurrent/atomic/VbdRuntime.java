package java.util.concurrent.atomic;

import java.lang.invoke.CallSite;
import java.lang.invoke.ConstantCallSite;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Method;
import java.util.function.BiFunction;

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

    /**
     * Never written. On x86-64 rewritten code loads it, and drops the value, as its acquire fence:
     * a volatile load is the barrier C1 and C2 compile {@link #acquire} to, and costs the
     * interpreter one field load instead of a call. Writing it changes nothing but the speed of
     * every fence.
     */
    public static volatile int order;

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
     * {@code System.arraycopy} fenced as a whole, as rewritten call sites fence it. Method handles
     * and reflection reach the native method without passing through any rewritten call site, so
     * the JDK links them here instead (see {@code java.lang.invoke.VbdMethodHandles} and
     * {@link #reflectiveTwin}). The trailing fence runs on an exception too: an
     * ArrayStoreException leaves the elements copied before it in place.
     */
    @Hidden
    @ForceInline
    public static void arraycopy(Object src, int srcPos, Object dest, int destPos, int length) {
        full();
        try {
            System.arraycopy(src, srcPos, dest, destPos, length);
        } finally {
            full();
        }
    }

    /**
     * The index of element {@code index} in an array a layout gives a stride ({@code vbd run --layout}):
     * {@code (index + 1) * stride}, a stride past the array's header as well as a stride from its
     * neighbours, since the header holds the length every bounds check reads; or -1 for an index that is
     * out of every such array's range, so that an access out of range still throws
     * ArrayIndexOutOfBoundsException.
     */
    @Hidden
    @ForceInline
    public static int stridedIndex(int index, int stride) {
        return index >= 0 && index < Integer.MAX_VALUE / stride ? (index + 1) * stride : -1;
    }

    /**
     * The length to allocate for an array of {@code length} elements with a stride, one stride more for
     * the first element's: a negative length stays negative (NegativeArraySizeException), and one too
     * long to spread asks for more than any array can hold (OutOfMemoryError).
     */
    @Hidden
    @ForceInline
    public static int stridedLength(int length, int stride) {
        if (length < 0) return length;
        return length < Integer.MAX_VALUE / stride ? (length + 1) * stride : Integer.MAX_VALUE;
    }

    /** The elements a strided array of {@code length} holds: {@link #stridedLength}'s inverse. */
    @Hidden
    @ForceInline
    public static int stridedCount(int length, int stride) {
        return length / stride - 1;
    }

    /**
     * The name of the volatile mode of a weak-mode method of {@code jdk.internal.misc.Unsafe} on a
     * heap location ({@code (Object, long, ...)}), or null when the method is no such weak mode.
     * Rewritten call sites are renamed the same way; this answers for the paths that reach the
     * method without a call site: method handles and reflection.
     */
    public static String unsafeVolatileTwin(String name, Class<?>[] params) {
        if (params.length < 2 || params[0] != Object.class || params[1] != long.class) return null;
        String type = null;
        for (String t : UNSAFE_TYPES) {
            int at = name.indexOf(t);
            if (at > 0 && (type == null || t.length() > type.length())) type = t;
        }
        if (type == null) return null;
        int at = name.indexOf(type);
        String op = name.substring(0, at), mode = name.substring(at + type.length());
        switch (op) {
            case "get":
            case "put":
                return mode.isEmpty() || mode.equals("Acquire") || mode.equals("Release") || mode.equals("Opaque")
                        ? op + type + "Volatile" : null;
            case "weakCompareAndSet":
                return mode.equals("Plain") || mode.equals("Acquire") || mode.equals("Release") ? op + type : null;
            case "compareAndExchange":
            case "getAndSet":
            case "getAndAdd":
            case "getAndBitwiseOr":
            case "getAndBitwiseAnd":
            case "getAndBitwiseXor":
                return mode.equals("Acquire") || mode.equals("Release") ? op + type : null;
            default:
                return null;
        }
    }

    private static final String[] UNSAFE_TYPES = {
            "Int", "Long", "Short", "Byte", "Char", "Boolean", "Float", "Double", "Reference"};

    private static volatile Method arraycopyTwin;

    /**
     * The method reflection must invoke in place of {@code m}: {@link #arraycopy} for
     * {@code System.arraycopy}, the volatile mode for a weak mode of {@code jdk.internal.misc.Unsafe},
     * else {@code m} itself. The JDK's reflection factory asks before it builds an accessor, so
     * the {@code Method} a program holds stays the one it looked up.
     */
    public static Method reflectiveTwin(Method m) {
        Class<?> c = m.getDeclaringClass();
        if (c == Object.class || c == Unsafe.class || c == java.lang.reflect.Array.class) {
            noteUnfenced(c, m.getName(), m.getParameterTypes(), c == Object.class, "reflection");
        }
        if (c == Object.class && m.getName().equals("clone")) VbdSpeculation.cloneable(null, null);
        if (c != System.class && c != Unsafe.class) return m;
        try {
            if (c == System.class) {
                if (!m.getName().equals("arraycopy")) return m;
                Method t = arraycopyTwin;
                if (t == null) {
                    t = VbdRuntime.class.getDeclaredMethod("arraycopy", m.getParameterTypes());
                    arraycopyTwin = t;
                }
                return t;
            }
            String twin = unsafeVolatileTwin(m.getName(), m.getParameterTypes());
            return twin == null ? m : Unsafe.class.getDeclaredMethod(twin, m.getParameterTypes());
        } catch (NoSuchMethodException e) {
            throw new InternalError("vbd: no fenced twin for " + m, e);
        }
    }

    /** Paths to unfenced operations the program linked, with counts; made on first use, long after start-up. */
    private static java.util.Map<String, Integer> openPaths;

    /**
     * Records that the program reached, through a method handle or reflection, an operation vbd
     * cannot fence on that path; the verifier reports each one.
     */
    public static void openPath(String what) {
        synchronized (VbdRuntime.class) {
            if (openPaths == null) openPaths = new java.util.TreeMap<>();
            openPaths.merge(what, 1, Integer::sum);
        }
    }

    /** Set while {@link #plainField} links relaxed code to a plain access; made on first use. */
    private static volatile ThreadLocal<Boolean> relaxedLink;

    /**
     * Whether this thread is linking a relaxed method's plain field access: the one plain
     * {@code VarHandle} method handle that is not an open path, because relaxed code asked for it.
     */
    public static boolean linkingRelaxedAccess() {
        ThreadLocal<Boolean> linking = relaxedLink;
        return linking != null && linking.get() != null;
    }

    /** What {@link #openPath} recorded so far. */
    public static java.util.Map<String, Integer> openPaths() {
        synchronized (VbdRuntime.class) {
            return openPaths == null ? java.util.Map.of() : new java.util.TreeMap<>(openPaths);
        }
    }

    /**
     * Whether a method of {@code jdk.internal.misc.Unsafe} is a plain access with no volatile twin:
     * an absolute address, a native word, or an unaligned access. Rewritten call sites fence these;
     * method handles and reflection on them cannot be.
     */
    static boolean unsafeUnfenced(String name, Class<?>[] params) {
        if (!name.startsWith("get") && !name.startsWith("put")) return false;
        if (name.endsWith("Unaligned") || name.equals("getAddress") || name.equals("putAddress")) return true;
        return params.length >= 1 && params[0] == long.class && unsafeVolatileTwin(name, new Class<?>[]{Object.class, long.class}) != null;
    }

    /**
     * Classes the JVM defined before vbd's agent started, strongly held (their loader is the system
     * one); null when there are none. Nothing is initialised here: this class runs early in start-up.
     */
    private static volatile java.util.Set<Class<?>> earlyClasses;
    /** Their fields that stay plain in the JVM, as {@code name + ' ' + descriptor}. */
    private static volatile java.util.Set<String> earlyPlainFields;

    /**
     * Told by vbd's agent at start-up: the classes defined before it, and which of their fields the
     * JVM keeps plain (their field flags cannot be changed once defined).
     */
    public static void earlyFields(Class<?>[] classes, String[] fields) {
        earlyPlainFields = java.util.Set.copyOf(java.util.Arrays.asList(fields));
        earlyClasses = java.util.Set.copyOf(java.util.Arrays.asList(classes));
    }

    /**
     * Records a reflective or method-handle accessor to a field that stays plain because its class
     * was defined before vbd's agent: bytecode accesses to it are fenced, accessors are not.
     */
    public static void noteEarlyField(Class<?> owner, String name, Class<?> type, boolean jvmVolatile, String path) {
        java.util.Set<Class<?>> early = earlyClasses;
        if (jvmVolatile || early == null || !early.contains(owner)) return;
        if (!earlyPlainFields.contains(name + ' ' + type.descriptorString())) return;
        openPath(owner.getName() + "." + name + " through " + path
                + ": a field of a class loaded before vbd's agent, accessed plainly");
    }

    /** Called by the prepared JDK's reflection factory before it builds a field accessor. */
    public static void reflectiveField(java.lang.reflect.Field f) {
        if (earlyClasses == null) return;
        noteEarlyField(f.getDeclaringClass(), f.getName(), f.getType(), false, "reflection");
    }

    /** Records a reflective or method-handle path to an unfenced operation, if {@code name} of {@code c} is one. */
    public static void noteUnfenced(Class<?> c, String name, Class<?>[] params, boolean virtualOnArray, String path) {
        if (c == Object.class && name.equals("clone") && virtualOnArray) {
            openPath("clone() of an array through " + path + ": a bulk copy without fences");
        } else if (c == java.lang.reflect.Array.class && (name.startsWith("get") || name.startsWith("set"))
                && !name.equals("getLength")) {
            openPath("java.lang.reflect.Array." + name + " through " + path + ": an element access without fences");
        } else if (c == Unsafe.class && unsafeUnfenced(name, params)) {
            openPath("jdk.internal.misc.Unsafe." + name + " through " + path + ": a plain access without fences");
        }
    }

    private static volatile BiFunction<Class<?>, byte[], byte[]> hiddenClassRewriter;

    /**
     * Installs the rewriter for hidden classes, which the JVM never shows to agents: it receives
     * the lookup class and the class file, and returns the class file to define (or null to define
     * it as it is). Only the first call takes effect; vbd's agent makes it before the program runs.
     */
    public static boolean hiddenClassRewriter(BiFunction<Class<?>, byte[], byte[]> rewriter) {
        synchronized (VbdRuntime.class) {
            if (hiddenClassRewriter != null) return false;
            hiddenClassRewriter = rewriter;
            return true;
        }
    }

    /** Called by the JDK's one native define path for every hidden class (see {@code java.lang.VbdDefineClass}). */
    public static byte[] rewriteHidden(Class<?> lookup, byte[] b, int off, int len) {
        BiFunction<Class<?>, byte[], byte[]> r = hiddenClassRewriter;
        if (r == null) return null; // JVM start-up: the JDK's own, before any program code
        return r.apply(lookup, slice(b, off, len));
    }

    private static byte[] slice(byte[] b, int off, int len) {
        return off == 0 && len == b.length ? b : java.util.Arrays.copyOfRange(b, off, off + len);
    }

    /** The rewrite of a class defined from bytes by a class loader: the class file to define instead, or null. */
    public interface ClassDefinitions {
        byte[] rewrite(ClassLoader loader, String name, byte[] bytes);
    }

    /**
     * vbd's own rewriting in a prepared runtime image: linked into its java.base, relocated, and
     * absent from patched modules, where vbd's agent rewrites instead.
     */
    private static final String IMAGE_REWRITING = "jdk.internal.misc.Vbd_agent_ImageRewriting";
    /** {@code -Dvbd.rewrite=agent}: vbd's agent rewrites; {@code none}: nothing does (a harness's own JVM). */
    private static final String REWRITE_PROPERTY = "vbd.rewrite";

    private static volatile ClassDefinitions classDefinitions;
    /** 1: this image rewrites the classes defined in it; -1: it does not; 0: not known yet. */
    private static volatile int imageRewrites;
    private static boolean starting;

    /** Installs the image's rewrite of defined classes (see {@link #IMAGE_REWRITING}); only the first call takes effect. */
    public static boolean classDefinitions(ClassDefinitions rewriter) {
        synchronized (VbdRuntime.class) {
            if (classDefinitions != null) return false;
            classDefinitions = rewriter;
            return true;
        }
    }

    /** Whether {@link #rewriteDefined} may return another class file. */
    public static boolean rewritesDefinedClasses() {
        int s = imageRewrites;
        return (s == 0 ? decide() : s) > 0;
    }

    /**
     * Called by the JDK's native define paths for every class a class loader or a lookup defines
     * from bytes (see {@code java.lang.VbdDefineClass}): the class file to define instead, or null.
     */
    public static byte[] rewriteDefined(ClassLoader loader, String name, byte[] b, int off, int len) {
        if (!rewritesDefinedClasses()) return null;
        ClassDefinitions d = classDefinitions;
        if (d == null) return null;
        return d.rewrite(loader, name, slice(b, off, len));
    }

    /**
     * Decides, on the first class defined once the module system is up, whether this JVM's
     * java.base rewrites: in a prepared image it starts vbd's rewriting here, before any class of
     * the program (a custom system class loader included) is defined. Until the module system is
     * up only the JDK's own classes are defined, which the image holds rewritten already.
     */
    private static int decide() {
        if (jdk.internal.misc.VM.initLevel() < 2) return 0;
        synchronized (VbdRuntime.class) {
            if (imageRewrites != 0 || starting) return imageRewrites;
            starting = true;
            try {
                imageRewrites = startImageRewriting();
            } finally {
                starting = false;
            }
            return imageRewrites;
        }
    }

    private static int startImageRewriting() {
        String mode = jdk.internal.misc.VM.getSavedProperty(REWRITE_PROPERTY);
        if ("agent".equals(mode) || "none".equals(mode)) return -1;
        if (mode != null) fatal("-D" + REWRITE_PROPERTY + "=" + mode + " is neither 'agent' nor 'none'");
        try {
            Class.forName(IMAGE_REWRITING, true, null);
        } catch (ClassNotFoundException e) {
            return -1; // patched modules: vbd's agent rewrites
        }
        String bootAppend = jdk.internal.misc.VM.getSavedProperty("jdk.boot.class.path.append");
        if (bootAppend != null && !bootAppend.isEmpty()) {
            fatal("classes on -Xbootclasspath/a are defined by the JVM itself, past this Java home's rewriting;"
                    + " run the program through 'vbd run', which gives such a command line vbd's agent");
        }
        return classDefinitions != null ? 1 : -1;
    }

    private static void fatal(String message) {
        System.err.println("vbd: " + message);
        System.err.flush();
        Runtime.getRuntime().halt(2);
    }

    /**
     * Bootstrap for a field access in a relaxed method whose field vbd made volatile: links to the
     * plain access mode of the field, as stock Java would compile it. {@code kind} is the JVM
     * opcode of the original instruction (GETFIELD, PUTFIELD, GETSTATIC or PUTSTATIC).
     */
    public static CallSite plainField(MethodHandles.Lookup lookup, String name, MethodType type,
                                      Class<?> owner, int kind) throws ReflectiveOperationException {
        MethodHandle mh;
        ThreadLocal<Boolean> linking = relaxedLink;
        if (linking == null) relaxedLink = linking = new ThreadLocal<>();
        linking.set(Boolean.TRUE);
        try {
            mh = plainAccessor(lookup, name, type, owner, kind);
        } catch (IllegalAccessException e) {
            // A VarHandle is refused where the bytecode's access is allowed (protected members
            // reached through a subclass): fall back to the field's own accessor, which is
            // volatile, so the access stays correct, only not relaxed.
            mh = declaredAccessor(lookup, name, type, owner, kind);
        } finally {
            linking.remove();
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
