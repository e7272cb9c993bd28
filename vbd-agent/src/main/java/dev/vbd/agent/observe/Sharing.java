package dev.vbd.agent.observe;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which of the program's fields, and which methods' array elements, more than one thread touched:
 * the places a missing {@code volatile} can be. A field is named by the class that declares it, as
 * a relaxed config's {@code field} rule names it; array elements by the methods that accessed an
 * array another thread accessed too, as an {@code arrays} rule names them. Each with the accesses
 * seen as it became shared (the two threads' sites).
 */
final class Sharing {
    /** At most this many sites are kept per field or method: enough to say where the threads met. */
    private static final int SITES = 4;

    private record Seen(Class<?> runtimeClass, int fieldKey) {}

    private final Set<Seen> seen = ConcurrentHashMap.newKeySet();
    /** Per class the observer instrumented (dotted name): its class file's SourceFile. */
    private final Map<String, String> sourceFiles = new ConcurrentHashMap<>();
    private final Set<Integer> arraySites = ConcurrentHashMap.newKeySet();
    private final Map<String, Entry> fields = new LinkedHashMap<>();
    private final Map<String, Entry> arrays = new LinkedHashMap<>();

    private static final class Entry {
        final Map<String, Object> json = new LinkedHashMap<>();
        final List<Object> sites = new ArrayList<>();
    }

    void sourceFile(String dottedClass, String file) {
        if (file != null) sourceFiles.put(dottedClass, file);
    }

    /**
     * A field location turned shared: {@code o} is the object, or for a static field its declaring
     * class; {@code sites} the accesses that made it so. The caller's thread is busy: the reflection
     * here is not observed.
     */
    void field(Object o, Site site, List<Site> sites) {
        if (o instanceof String) return; // a class too old for class constants: no declaring class to name
        boolean isStatic = o instanceof Class<?>;
        Class<?> start = isStatic ? (Class<?>) o : o.getClass();
        if (!seen.add(new Seen(start, site.fieldKey()))) return;
        String name = site.target().substring(site.target().lastIndexOf('.') + 1);
        Field declared = declared(start, name, isStatic);
        String owner = declared == null ? site.target().substring(0, site.target().lastIndexOf('.'))
                : declared.getDeclaringClass().getName();
        synchronized (fields) {
            Entry e = fields.computeIfAbsent(owner + "#" + name, k -> new Entry());
            if (e.json.isEmpty()) {
                e.json.put("class", owner);
                e.json.put("field", name);
                e.json.put("type", declared == null ? "?" : declared.getType().getTypeName());
                e.json.put("static", isStatic);
                e.json.put("volatile", declared != null && Modifier.isVolatile(declared.getModifiers()));
                e.json.put("final", declared != null && Modifier.isFinal(declared.getModifiers()));
                e.json.put("sourceFile", sourceFiles.get(owner));
            }
            addSites(e, sites);
        }
    }

    /** An access, at site {@code siteId}, of an array's elements that another thread accessed too; {@code sites} those that made it so, the first time. */
    void array(int siteId, Site site, List<Site> sites) {
        if (!arraySites.add(siteId) && sites.isEmpty()) return;
        List<Site> all = new ArrayList<>(sites);
        all.add(site);
        synchronized (arrays) {
            for (Site s : all) {
                Entry e = arrays.computeIfAbsent(s.className() + "#" + s.method(), k -> new Entry());
                if (e.json.isEmpty()) {
                    e.json.put("class", s.className());
                    e.json.put("method", s.method());
                    e.json.put("elements", s.target());
                    e.json.put("sourceFile", s.sourceFile());
                }
                addSites(e, List.of(s));
            }
        }
    }

    /** Whether an array access site was already counted as shared. */
    boolean arraySiteShared(int siteId) {
        return arraySites.contains(siteId);
    }

    private static void addSites(Entry e, List<Site> sites) {
        for (Site s : sites) {
            if (e.sites.size() >= SITES) return;
            String d = s.describe();
            if (!e.sites.contains(d)) e.sites.add(d);
        }
    }

    /** The shared fields and array-accessing methods, as JSON values. */
    Map<String, Object> json() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("fields", list(fields));
        out.put("arrays", list(arrays));
        return out;
    }

    private static List<Object> list(Map<String, Entry> entries) {
        synchronized (entries) {
            List<Object> out = new ArrayList<>();
            for (Entry e : entries.values()) {
                Map<String, Object> m = new LinkedHashMap<>(e.json);
                m.put("sites", new ArrayList<>(e.sites));
                out.add(m);
            }
            return out;
        }
    }

    private static Field declared(Class<?> start, String name, boolean isStatic) {
        java.util.ArrayDeque<Class<?>> todo = new java.util.ArrayDeque<>();
        todo.add(start);
        while (!todo.isEmpty()) {
            Class<?> c = todo.poll();
            for (Field f : c.getDeclaredFields()) {
                if (f.getName().equals(name) && Modifier.isStatic(f.getModifiers()) == isStatic) return f;
            }
            if (isStatic) todo.addAll(List.of(c.getInterfaces()));
            if (c.getSuperclass() != null) todo.add(c.getSuperclass());
        }
        return null;
    }

}
