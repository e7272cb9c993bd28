package dev.vbd.agent;

import dev.vbd.core.analysis.ClassFacts;

import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.VbdFieldModifiers;
import java.util.function.Function;

/**
 * Tells java.base's {@code VbdFieldModifiers} which fields of a class vbd changed, so that a
 * program sees the modifiers it declared. Classes the agent rewrites are recorded as they are
 * rewritten (the original class file is gone once they are defined); the prepared JDK's classes
 * are answered from the marker in their rewritten bytes, read when first asked.
 * Returns {@code {flipped, unfinal}} field names, or null when vbd changed no field of the class.
 */
final class DeclaredModifiers implements Function<Class<?>, String[][]> {
    /** Thrown when asked again while reading a class: the asker falls back to the JVM's flags, uncached. */
    private static final RuntimeException BUSY = new IllegalStateException("reading a class's marker") {
        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    };

    private final Map<ClassLoader, Map<String, String[][]>> byLoader = new WeakHashMap<>();
    private final Map<String, String[][]> boot = new ConcurrentHashMap<>();

    /** Installs this as java.base's hook; false if another was installed first. */
    boolean install() {
        return VbdFieldModifiers.install(this);
    }

    /** Remembers what the rewrite of {@code internalName}, defined by {@code loader}, changed. */
    void record(ClassLoader loader, String internalName, List<String> flipped, List<String> unfinal) {
        if (flipped.isEmpty()) return;
        String[][] changed = {flipped.toArray(new String[0]), unfinal.toArray(new String[0])};
        String name = internalName.replace('/', '.');
        if (loader == null) {
            boot.put(name, changed);
            return;
        }
        Map<String, String[][]> names;
        synchronized (byLoader) {
            names = byLoader.get(loader);
            if (names == null) byLoader.put(loader, names = new ConcurrentHashMap<>());
        }
        names.put(name, changed);
    }

    @Override
    public String[][] apply(Class<?> c) {
        if (c.isArray() || c.isPrimitive() || c.isHidden()) return null;
        ClassLoader loader = c.getClassLoader();
        String[][] recorded;
        if (loader == null) {
            recorded = boot.get(c.getName());
        } else {
            Map<String, String[][]> names;
            synchronized (byLoader) {
                names = byLoader.get(loader);
            }
            recorded = names == null ? null : names.get(c.getName());
        }
        if (recorded != null) return recorded;
        // the JDK's modules, whichever of the three built-in loaders defines them (jdk.compiler's is the app loader)
        Module module = c.getModule();
        return module.isNamed() && module.getLayer() == ModuleLayer.boot() ? fromMarker(c) : null;
    }

    /** A prepared JDK class: its patched module holds the rewritten class file, with its marker. */
    private String[][] fromMarker(Class<?> c) {
        if (!CircularityGuard.enter(CircularityGuard.Work.READING_MARKER)) throw BUSY;
        try (InputStream in = c.getModule().getResourceAsStream(c.getName().replace('.', '/') + ".class")) {
            if (in == null) return null;
            ClassFacts.Marker marker = ClassFacts.read(in.readAllBytes()).marker;
            if (marker == null || marker.flipped.isEmpty()) return null;
            return new String[][]{marker.flipped.toArray(new String[0]), marker.unfinal.toArray(new String[0])};
        } catch (Exception e) {
            return null;
        } finally {
            CircularityGuard.exit(CircularityGuard.Work.READING_MARKER);
        }
    }
}
