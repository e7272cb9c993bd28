package dev.vbd.core.verify;

import dev.vbd.core.analysis.ClassFacts;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The declarations of every class in the verified set, by defining loader, for resolving field
 * instructions as the JVM does. A name not defined by the given loader is looked up among all
 * loaders (a loader usually delegates, so the owner is often defined by another one), then in
 * the optional {@link ClassLookup} (a static check resolves against the prepared JDK that way).
 */
final class ClassIndex {
    /** A class's declarations, the key of the loader that defined it, and its class file. */
    record Known(String loader, ClassFacts facts, Supplier<byte[]> bytes) {}

    private static final Known MISSING = new Known("", null, () -> null);
    private static final String BOOT = "boot";

    private final Map<String, Map<String, Known>> byLoader = new HashMap<>();
    private final Map<String, Known> anyLoader = new HashMap<>();
    private final Map<String, Known> looked = new ConcurrentHashMap<>();
    private final ClassLookup lookup;

    ClassIndex(ClassLookup lookup) {
        this.lookup = lookup;
    }

    void add(String loader, ClassFacts facts, Supplier<byte[]> bytes) {
        Known k = new Known(loader, facts, bytes);
        byLoader.computeIfAbsent(loader, l -> new HashMap<>()).putIfAbsent(facts.name, k);
        Known prev = anyLoader.get(facts.name);
        // the boot loader's class wins: it is the one every other loader delegates to first
        if (prev == null || (BOOT.equals(loader) && !BOOT.equals(prev.loader()))) anyLoader.put(facts.name, k);
    }

    /** The class of this name as seen from code of {@code loader}, or null. */
    Known find(String loader, String name) {
        Map<String, Known> own = byLoader.get(loader);
        Known k = own == null ? null : own.get(name);
        if (k == null) k = anyLoader.get(name);
        if (k != null) return k;
        if (lookup == null) return null;
        Known found = looked.computeIfAbsent(loader + "\0" + name, key -> {
            byte[] b = lookup.find(loader, name);
            if (b == null) return MISSING;
            try {
                return new Known(loader, ClassFacts.read(b), () -> b);
            } catch (RuntimeException e) {
                return MISSING;
            }
        });
        return found == MISSING ? null : found;
    }

    /** A resolved field and the class declaring it. */
    record Resolved(Known owner, ClassFacts.FieldFact field) {}

    /**
     * Resolves a field reference as JVMS 5.4.3.2 does: the class's own fields, then its
     * superinterfaces (recursively), then its superclass. Null if some class on the way is unknown
     * or the field does not exist.
     */
    Resolved resolveField(String loader, String owner, String name, String desc) {
        return resolve(loader, owner, name, desc, 0);
    }

    private Resolved resolve(String loader, String owner, String name, String desc, int depth) {
        if (owner == null || depth > 64) return null;
        Known k = find(loader, owner);
        if (k == null) return null;
        ClassFacts.FieldFact f = k.facts().fields.get(name);
        if (f != null && f.desc().equals(desc)) return new Resolved(k, f);
        for (String itf : k.facts().interfaces) {
            Resolved r = resolve(k.loader(), itf, name, desc, depth + 1);
            if (r != null) return r;
        }
        return resolve(k.loader(), k.facts().superName, name, desc, depth + 1);
    }
}
