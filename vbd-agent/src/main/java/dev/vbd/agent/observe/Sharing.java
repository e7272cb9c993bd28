package dev.vbd.agent.observe;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which of the program's fields, and which methods' array elements, the run touched, and which of
 * them more than one thread touched: the places a missing {@code volatile} can be. A field is named
 * by the class that declares it, as a relaxed config's {@code field} rule names it; array elements
 * by the methods that accessed an array another thread accessed too, as an {@code arrays} rule
 * names them. Each shared one with the accesses seen as it became shared (the two threads' sites).
 */
final class Sharing {
    /** At most this many sites are kept per field or method: enough to say where the threads met. */
    private static final int SITES = 4;

    /** Per class the observer instrumented (dotted name): its class file's SourceFile. */
    private final Map<String, String> sourceFiles = new ConcurrentHashMap<>();
    /** Per field site, once it ran: the field it reaches (absent where none could be found). */
    private final Map<Integer, Field> declared = new ConcurrentHashMap<>();
    private final SiteBits touchedSites = new SiteBits();
    private final SiteBits sharedArraySites = new SiteBits();
    private final Set<String> touchedFields = ConcurrentHashMap.newKeySet();
    private final Set<String> touchedArrays = ConcurrentHashMap.newKeySet();
    private final Map<String, Entry> fields = new LinkedHashMap<>();
    private final Map<String, Entry> arrays = new LinkedHashMap<>();

    private static final class Entry {
        final Map<String, Object> json = new LinkedHashMap<>();
        final List<Object> sites = new ArrayList<>();
    }

    /** A set of site numbers, read without a lock on every access: copied on each change, which is once per site. */
    private static final class SiteBits {
        private volatile long[] bits = new long[16];

        boolean contains(int site) {
            long[] b = bits;
            int w = site >>> 6;
            return w < b.length && (b[w] & (1L << site)) != 0;
        }

        synchronized boolean add(int site) {
            if (contains(site)) return false;
            int need = (site >>> 6) + 1;
            long[] b = java.util.Arrays.copyOf(bits, need <= bits.length ? bits.length : need * 2);
            b[site >>> 6] |= 1L << site;
            bits = b;
            return true;
        }
    }

    void sourceFile(String dottedClass, String file) {
        if (file != null) sourceFiles.put(dottedClass, file);
    }

    /** Whether the site ran before: a cheap test for {@link #touched}'s callers. */
    boolean touchedBefore(int siteId) {
        return touchedSites.contains(siteId);
    }

    /**
     * A site's first access: {@code o} is the object, or for a static field its declaring class
     * (for arrays, the array). The caller's thread is busy: the reflection here is not observed.
     */
    void touched(Object o, int siteId, Site site, boolean array) {
        if (!touchedSites.add(siteId)) return;
        if (array) {
            touchedArrays.add(site.className() + "#" + site.method());
            return;
        }
        Field f = field(o, siteId, site);
        if (f != null && !Modifier.isVolatile(f.getModifiers()) && programs(f.getDeclaringClass())) {
            touchedFields.add(f.getDeclaringClass().getName() + "#" + f.getName());
        }
    }

    /**
     * Whether a class is the program's, not the JDK's: a missing volatile is the program's to add,
     * and a relaxed config that reaches the JDK's classes needs a JDK prepared for it.
     */
    private static boolean programs(Class<?> c) {
        ClassLoader l = c.getClassLoader();
        return l != null && l != ClassLoader.getPlatformClassLoader();
    }

    /** The field a site reaches through {@code o}, found once per site. */
    private Field field(Object o, int siteId, Site site) {
        Field f = declared.get(siteId);
        if (f != null || declared.containsKey(siteId)) return f;
        // a class too old for class constants names its statics by a String: no class to look in
        if (!(o instanceof String)) f = declared(o, site);
        if (f != null) declared.put(siteId, f);
        return f;
    }

    /**
     * A field location turned shared: {@code o} as for {@link #touched}; {@code sites} the accesses
     * that made it so.
     */
    void field(Object o, int siteId, Site site, List<Site> sites) {
        Field declaredField = o instanceof String ? null : field(o, siteId, site);
        if (declaredField != null && !programs(declaredField.getDeclaringClass())) return;
        String name = site.target().substring(site.target().lastIndexOf('.') + 1);
        String owner = declaredField == null ? site.target().substring(0, site.target().lastIndexOf('.'))
                : declaredField.getDeclaringClass().getName();
        synchronized (fields) {
            Entry e = fields.computeIfAbsent(owner + "#" + name, k -> new Entry());
            if (e.json.isEmpty()) {
                e.json.put("class", owner);
                e.json.put("field", name);
                e.json.put("type", declaredField == null ? "?" : declaredField.getType().getTypeName());
                e.json.put("static", declaredField != null && Modifier.isStatic(declaredField.getModifiers()));
                e.json.put("volatile", declaredField != null && Modifier.isVolatile(declaredField.getModifiers()));
                e.json.put("final", declaredField != null && Modifier.isFinal(declaredField.getModifiers()));
                e.json.put("sourceFile", sourceFiles.get(owner));
            }
            addSites(e, sites);
        }
    }

    /**
     * An access, at site {@code siteId}, of an array's elements that another thread accessed too;
     * {@code sites} those that made it so, the first time, and {@code allocation} where the array
     * was allocated (null if unseen).
     */
    @SuppressWarnings("unchecked")
    void array(int siteId, Site site, List<Site> sites, Site allocation) {
        if (!sharedArraySites.add(siteId) && sites.isEmpty()) return;
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
                    e.json.put("allocated", new ArrayList<Object>());
                }
                List<Object> at = (List<Object>) e.json.get("allocated");
                if (allocation != null && at.size() < SITES && !at.contains(allocation.where())) at.add(allocation.where());
                addSites(e, List.of(s));
            }
        }
    }

    /** Whether an array access site was already counted as shared. */
    boolean arraySiteShared(int siteId) {
        return sharedArraySites.contains(siteId);
    }

    private static void addSites(Entry e, List<Site> sites) {
        for (Site s : sites) {
            if (e.sites.size() >= SITES) return;
            String d = s.describe();
            if (!e.sites.contains(d)) e.sites.add(d);
        }
    }

    /**
     * The shared fields and array-accessing methods, and every field (not declared volatile) and
     * array-accessing method the run touched ({@code class#member}), as JSON values.
     */
    Map<String, Object> json() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("fields", list(fields));
        out.put("arrays", list(arrays));
        Map<String, Object> touched = new LinkedHashMap<>();
        touched.put("fields", new ArrayList<Object>(new java.util.TreeSet<>(touchedFields)));
        touched.put("arrays", new ArrayList<Object>(new java.util.TreeSet<>(touchedArrays)));
        out.put("touched", touched);
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

    /**
     * The field the site's instruction resolves to, as the JVM resolves it: from the class the
     * instruction names (for an instance field, found among the object's superclasses), up through
     * its superclasses, and for a static field its interfaces too.
     */
    static Field declared(Object o, Site site) {
        boolean isStatic = o instanceof Class<?>;
        String ownerName = site.target().substring(0, site.target().lastIndexOf('.'));
        String name = site.target().substring(site.target().lastIndexOf('.') + 1);
        Class<?> start = isStatic ? (Class<?>) o : o.getClass();
        if (!isStatic) {
            while (start != null && !start.getName().equals(ownerName)) start = start.getSuperclass();
            if (start == null) start = o.getClass();
        }
        java.util.ArrayDeque<Class<?>> todo = new java.util.ArrayDeque<>();
        Set<Class<?>> visited = new LinkedHashSet<>();
        todo.add(start);
        while (!todo.isEmpty()) {
            Class<?> c = todo.poll();
            if (!visited.add(c)) continue;
            for (Field f : c.getDeclaredFields()) {
                if (f.getName().equals(name) && Modifier.isStatic(f.getModifiers()) == isStatic) return f;
            }
            if (isStatic) todo.addAll(List.of(c.getInterfaces()));
            if (c.getSuperclass() != null) todo.add(c.getSuperclass());
        }
        return null;
    }
}
