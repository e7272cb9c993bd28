package dev.vbd.core.rewrite;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The weak access modes of the JDK's memory-access APIs and what each becomes: the volatile
 * mode of the same operation. A mode with no volatile twin (address-based and unaligned
 * {@code Unsafe} accesses) keeps its call and gets the fences of a volatile access instead.
 */
public final class WeakModes {
    private WeakModes() {}

    public enum Kind { LOAD, STORE }

    /** Renaming of a call; the descriptor is unchanged. */
    public record Upgrade(String newName) {}

    /** A call kept as it is but fenced as a volatile access of the given kind. */
    public record Fence(Kind kind) {}

    public static final String VAR_HANDLE = "java/lang/invoke/VarHandle";
    static final String REFLECT_ARRAY = "java/lang/reflect/Array";

    private static final Map<String, String> VAR_HANDLE_MODES = new HashMap<>();
    private static final Map<String, String> ATOMIC_MODES = new HashMap<>();
    private static final Map<String, String> UPDATER_MODES = new HashMap<>();

    static {
        // Plain get/set are fenced instead (see classify); the other weak modes share their
        // volatile twin's support group, so a VarHandle that has one has the other.
        for (String m : new String[]{"getOpaque", "getAcquire"}) VAR_HANDLE_MODES.put(m, "getVolatile");
        for (String m : new String[]{"setOpaque", "setRelease"}) VAR_HANDLE_MODES.put(m, "setVolatile");
        for (String m : new String[]{"weakCompareAndSetPlain", "weakCompareAndSetAcquire", "weakCompareAndSetRelease"}) {
            VAR_HANDLE_MODES.put(m, "weakCompareAndSet");
        }
        for (String op : new String[]{"compareAndExchange", "getAndSet", "getAndAdd",
                "getAndBitwiseOr", "getAndBitwiseAnd", "getAndBitwiseXor"}) {
            VAR_HANDLE_MODES.put(op + "Acquire", op);
            VAR_HANDLE_MODES.put(op + "Release", op);
        }

        ATOMIC_MODES.put("lazySet", "set");
        ATOMIC_MODES.put("setPlain", "set");
        ATOMIC_MODES.put("setOpaque", "set");
        ATOMIC_MODES.put("setRelease", "set");
        ATOMIC_MODES.put("getPlain", "get");
        ATOMIC_MODES.put("getOpaque", "get");
        ATOMIC_MODES.put("getAcquire", "get");
        ATOMIC_MODES.put("weakCompareAndSet", "weakCompareAndSetVolatile");
        ATOMIC_MODES.put("weakCompareAndSetPlain", "weakCompareAndSetVolatile");
        ATOMIC_MODES.put("weakCompareAndSetAcquire", "weakCompareAndSetVolatile");
        ATOMIC_MODES.put("weakCompareAndSetRelease", "weakCompareAndSetVolatile");
        ATOMIC_MODES.put("compareAndExchangeAcquire", "compareAndExchange");
        ATOMIC_MODES.put("compareAndExchangeRelease", "compareAndExchange");

        UPDATER_MODES.put("lazySet", "set");
        UPDATER_MODES.put("weakCompareAndSet", "compareAndSet");
    }

    private static final Set<String> ATOMICS = Set.of(
            "java/util/concurrent/atomic/AtomicInteger", "java/util/concurrent/atomic/AtomicLong",
            "java/util/concurrent/atomic/AtomicBoolean", "java/util/concurrent/atomic/AtomicReference",
            "java/util/concurrent/atomic/AtomicIntegerArray", "java/util/concurrent/atomic/AtomicLongArray",
            "java/util/concurrent/atomic/AtomicReferenceArray");
    private static final Set<String> UPDATERS = Set.of(
            "java/util/concurrent/atomic/AtomicIntegerFieldUpdater", "java/util/concurrent/atomic/AtomicLongFieldUpdater",
            "java/util/concurrent/atomic/AtomicReferenceFieldUpdater");
    private static final Set<String> UNSAFES = Set.of("jdk/internal/misc/Unsafe", "sun/misc/Unsafe");

    private static final String TYPES = "Int|Long|Short|Byte|Char|Boolean|Float|Double|Reference|Object";

    /** Returns an {@link Upgrade}, a {@link Fence}, or null if the call is not a weak access. */
    public static Object classify(String owner, String name, String desc) {
        if (owner.equals(VAR_HANDLE)) {
            // Some VarHandles support only plain get and set (byte-array views on recent JDKs):
            // those keep their call and get the fences of a volatile access.
            if (name.equals("get")) return new Fence(Kind.LOAD);
            if (name.equals("set")) return new Fence(Kind.STORE);
            String to = VAR_HANDLE_MODES.get(name);
            return to == null ? null : new Upgrade(to);
        }
        if (ATOMICS.contains(owner)) {
            String to = ATOMIC_MODES.get(name);
            if (to == null) return null;
            // AtomicBoolean/AtomicReference have no weakCompareAndSetVolatile before JDK 9's names; all JDK 17+ do
            return new Upgrade(to);
        }
        if (UPDATERS.contains(owner)) {
            String to = UPDATER_MODES.get(name);
            return to == null ? null : new Upgrade(to);
        }
        if (UNSAFES.contains(owner)) {
            return classifyUnsafe(owner, name, desc);
        }
        if (owner.equals(REFLECT_ARRAY) && desc.startsWith("(Ljava/lang/Object;I")) {
            // native element accesses with no volatile twin: fenced like a volatile array access
            if (name.startsWith("get") && !name.equals("getLength")) return new Fence(Kind.LOAD);
            if (name.startsWith("set")) return new Fence(Kind.STORE);
        }
        return null;
    }

    private static Object classifyUnsafe(String owner, String name, String desc) {
        boolean heap = desc.startsWith("(Ljava/lang/Object;J");
        if (name.matches("(get|put)(" + TYPES + ")") ) {
            String base = name.substring(3);
            Kind kind = name.startsWith("get") ? Kind.LOAD : Kind.STORE;
            if (heap) return new Upgrade(name + "Volatile");
            return new Fence(kind); // absolute address: same order, no volatile twin
        }
        if (name.equals("getAddress") || name.equals("putAddress")) {
            // a native word (pointer-sized) plain access: no volatile twin, so fence it
            return new Fence(name.startsWith("get") ? Kind.LOAD : Kind.STORE);
        }
        if (name.matches("(get|put)(" + TYPES + ")Unaligned")) {
            return new Fence(name.startsWith("get") ? Kind.LOAD : Kind.STORE);
        }
        if (name.matches("get(" + TYPES + ")(Acquire|Opaque)")) {
            return new Upgrade(name.replaceAll("(Acquire|Opaque)$", "Volatile"));
        }
        if (name.matches("put(" + TYPES + ")(Release|Opaque)")) {
            return new Upgrade(name.replaceAll("(Release|Opaque)$", "Volatile"));
        }
        if (name.matches("putOrdered(Int|Long|Object)")) {
            return new Upgrade("put" + name.substring("putOrdered".length()) + "Volatile");
        }
        if (owner.equals("jdk/internal/misc/Unsafe")) {
            if (name.matches("weakCompareAndSet(" + TYPES + ")(Plain|Acquire|Release)")) {
                return new Upgrade(name.replaceAll("(Plain|Acquire|Release)$", ""));
            }
            if (name.matches("compareAndExchange(" + TYPES + ")(Acquire|Release)")
                    || name.matches("getAnd(Set|Add|BitwiseOr|BitwiseAnd|BitwiseXor)(" + TYPES + ")(Acquire|Release)")) {
                return new Upgrade(name.replaceAll("(Acquire|Release)$", ""));
            }
        }
        return null;
    }
}
