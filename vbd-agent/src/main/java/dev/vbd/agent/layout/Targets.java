package dev.vbd.agent.layout;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the probe's calls reach, by number: a field (instance or static) as the instructions name
 * it, or the arrays allocated at one site of the program (or, per type, those allocated where the
 * probe did not look). Each counts its accesses and the threads that wrote it. Targets are added
 * under this table's lock and read without it.
 */
final class Targets {
    enum Kind { FIELD, STATIC, ARRAY }

    static final class Target {
        final int id;
        final Kind kind;
        /** A field's owner as the instruction names it, or the class whose method allocates the array. */
        final String owner;
        /** A field's name, or the allocating method's. */
        final String name;
        /** A field's descriptor, or the array's type. */
        final String type;
        /** Where an array was allocated, as a stack trace names a frame; null for a field. */
        final String site;
        final LongAdder accesses = new LongAdder();
        final LongAdder writes = new LongAdder();
        /** The threads that wrote it, one bit each by their index mod 64. */
        final AtomicLong writers = new AtomicLong();
        final AtomicLong accessors = new AtomicLong();
        /** A field's offset within its object (or, for a static, its class's mirror), once known; -1 before, -2 for never. */
        volatile long offset = -1;
        /** A static field's declaring class, once known. */
        volatile Class<?> holder;
        /** A field's declaring class, as Java names it, once known. */
        volatile String declaredBy;
        /** For arrays: the field the allocating code stores them into ({@code com.example.Striped#cells}), if it does so at once. */
        volatile String storedIn;

        Target(int id, Kind kind, String owner, String name, String type, String site) {
            this.id = id;
            this.kind = kind;
            this.owner = owner;
            this.name = name;
            this.type = type;
            this.site = site;
        }

        void count(int thread, boolean write) {
            long bit = 1L << thread;
            accesses.increment();
            if ((accessors.get() & bit) == 0) accessors.getAndAccumulate(bit, (a, b) -> a | b);
            if (!write) return;
            writes.increment();
            if ((writers.get() & bit) == 0) writers.getAndAccumulate(bit, (a, b) -> a | b);
        }

        /** The field's class and name ({@code com.example.Counters#hits}), or the array's allocation. */
        String describe() {
            if (kind == Kind.ARRAY) return type + (site == null ? " (allocated where nothing was watched)" : " allocated at " + site);
            return (declaredBy != null ? declaredBy : owner) + "#" + name;
        }
    }

    private volatile Target[] targets = new Target[256];
    private int count;
    private final Map<String, Integer> byKey = new HashMap<>();

    Target get(int id) {
        return targets[id];
    }

    synchronized int field(String owner, String name, String descriptor, boolean isStatic) {
        String dotted = owner.replace('/', '.');
        return find((isStatic ? "s " : "f ") + dotted + "#" + name,
                id -> new Target(id, isStatic ? Kind.STATIC : Kind.FIELD, dotted, name, descriptor, null));
    }

    synchronized int arraySite(String className, String method, String sourceFile, int line, String type) {
        String file = sourceFile == null ? "Unknown Source" : line > 0 ? sourceFile + ":" + line : sourceFile;
        String site = className + "." + method + "(" + file + ")";
        return find("a " + type + " " + site, id -> new Target(id, Kind.ARRAY, className, method, type, site));
    }

    /** The arrays allocated at {@code site} go straight into the field {@code owner#name}. */
    void storedIn(int site, String owner, String name) {
        Target t = get(site);
        if (t.storedIn == null) t.storedIn = owner.replace('/', '.') + "#" + name;
    }

    /** The arrays of one type allocated where the probe did not look: by the JDK, or before it started. */
    synchronized int unseenArrays(String type) {
        return find("u " + type, id -> new Target(id, Kind.ARRAY, null, null, type, null));
    }

    private int find(String key, java.util.function.IntFunction<Target> make) {
        Integer id = byKey.get(key);
        if (id != null) return id;
        Target[] t = targets;
        if (count == t.length) t = Arrays.copyOf(t, t.length * 2);
        t[count] = make.apply(count);
        targets = t;
        byKey.put(key, count);
        return count++;
    }

}
