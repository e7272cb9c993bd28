package dev.vbd.agent;

import dev.vbd.core.rewrite.FieldMode;

import dev.vbd.core.analysis.ClassFacts;
import dev.vbd.core.policy.Policy;
import dev.vbd.core.verify.ClassEntry;
import dev.vbd.core.verify.Finding;
import dev.vbd.core.verify.Json;
import dev.vbd.core.verify.PreparedJdk;
import dev.vbd.core.verify.Verifier;
import dev.vbd.core.verify.VerifyReport;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Verify mode: at exit, reads back the bytes of every loaded class as the JVM runs it and
 * verifies them, then writes the JSON report.
 *
 * <p>The bytes come from retransformation: this observer is retransform-capable, so when the
 * walk retransforms a class the JVM hands it the class file it reconstitutes from the running
 * class (the rewrite included), and the observer keeps it and changes nothing. A JVM keeps no
 * invisible annotations, so the reconstituted bytes lack vbd's marker, and a marker found in them
 * is one the program wrote. The marker of each class is therefore noted as it loads: the rewriter
 * tells of each class it rewrote, the observer (after the rewriting transformer) notes the marker of
 * each class the JDK's own loaders define, and the classes loaded before the agent started take
 * theirs from the prepared JDK they came from. vbd's own classes are known by their jar
 * ({@link OwnClasses}) and counted as excluded.
 * Hidden classes are never passed to agents and cannot be retransformed: they are counted apart.
 */
final class VerifyWalk implements ClassFileTransformer, LoadTimeRewriter.Rewrites {
    private static final int BATCH = 500;
    private static final String BOOT = "boot";

    private final Map<ClassLoader, Map<String, ClassFacts.Marker>> markers = Collections.synchronizedMap(new WeakHashMap<>());
    private final Map<String, ClassFacts.Marker> bootMarkers = new ConcurrentHashMap<>();
    private volatile Map<Class<?>, byte[]> captured;
    private final OwnClasses own;

    private VerifyWalk(OwnClasses own) {
        this.own = own;
    }

    /** Starts observing class loads; call from premain, after the rewriting transformer is added. */
    static VerifyWalk start(Instrumentation inst, OwnClasses own) {
        VerifyWalk w = new VerifyWalk(own);
        inst.addTransformer(w, true);
        return w;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
                            ProtectionDomain domain, byte[] bytes) {
        try {
            if (redefined != null) {
                Map<Class<?>, byte[]> c = captured;
                if (c != null && bytes != null) c.put(redefined, bytes);
            } else if (className != null && bytes != null && LoadTimeRewriter.jdkLoader(loader)
                    && (module == null || module.isNamed()) && LoadTimeRewriter.containsMarker(bytes)) {
                note(loader, className, bytes);
            }
        } catch (Throwable t) {
            // an observer must never disturb class loading; a class it missed is reported uncovered
        }
        return null;
    }

    @Override
    public void rewritten(ClassLoader loader, String className, byte[] bytes) {
        try {
            note(loader, className, bytes);
        } catch (Throwable t) {
            // as above
        }
    }

    private void note(ClassLoader loader, String className, byte[] bytes) {
        ClassFacts.Marker m = ClassFacts.read(bytes).marker;
        if (m == null) return;
        if (loader == null) bootMarkers.put(className, m);
        else markers.computeIfAbsent(loader, l -> new ConcurrentHashMap<>()).put(className, m);
    }

    /** The shutdown hook's work: walk, verify, write the report. Never throws. */
    void run(Instrumentation inst, Policy policy, AgentOptions options, RewriteStats stats, HiddenClasses hidden) {
        long start = System.nanoTime();
        try {
            VerifyReport report = walk(inst, policy, options, stats, hidden);
            report.put("mode", "dynamic");
            report.put("javaVersion", System.getProperty("java.version"));
            report.put("javaHome", System.getProperty("java.home"));
            Map<String, Object> agent = new LinkedHashMap<>();
            agent.put("rewritten", stats.rewritten.get());
            agent.put("alreadyRewritten", stats.alreadyRewritten.get());
            agent.put("excluded", stats.excluded.get());
            agent.put("hiddenRewritten", stats.hiddenRewritten.get());
            agent.put("hiddenArraysFenced", stats.hiddenArraysFenced.get());
            agent.put("hiddenLeftAsGenerated", stats.hiddenLeft.get());
            synchronized (stats.failed) {
                agent.put("failed", new LinkedHashMap<String, Object>(stats.failed));
            }
            report.put("agent", agent);
            report.put("walkMillis", (System.nanoTime() - start) / 1_000_000);
            write(options.verifyReport(), Json.write(report.toJson()));
        } catch (Throwable t) {
            System.err.println("vbd: verify: could not verify the run: " + t);
            t.printStackTrace();
            try {
                Map<String, Object> err = new LinkedHashMap<>();
                err.put("error", String.valueOf(t));
                write(options.verifyReport(), Json.write(err));
            } catch (Throwable ignored) {
                // the launcher reports the missing report
            }
        }
    }

    private VerifyReport walk(Instrumentation inst, Policy policy, AgentOptions options, RewriteStats stats,
                              HiddenClasses hidden) {
        VerifyReport report = new VerifyReport();
        PreparedJdk jdk = options.jdkDir() == null ? null : new PreparedJdk(options.jdkDir());
        try {
            FieldMode fields = options.fields() != null ? options.fields()
                    : LoadTimeRewriter.preparedFields(options.jdkDir() == null ? null : options.jdkDir().toFile());
            return walk(inst, policy, stats, report, jdk, hidden, fields == FieldMode.SAFE_CONSTRUCTION);
        } finally {
            if (jdk != null) jdk.close();
        }
    }

    private VerifyReport walk(Instrumentation inst, Policy policy, RewriteStats stats, VerifyReport report, PreparedJdk jdk,
                              HiddenClasses hidden, boolean safeConstruction) {
        // Hidden classes cannot be read back; those vbd rewrote are verified from the bytes it gave the JVM.
        List<HiddenClasses.Rewritten> rewrittenHidden = hidden.rewritten();
        List<Class<?>> modifiable = modifiable(inst, report, jdk, hidden, rewrittenHidden);
        Set<Class<?>> failedAlone = Collections.newSetFromMap(new IdentityHashMap<>());
        long start = System.nanoTime();
        Map<Class<?>, byte[]> bytes = readBack(inst, modifiable, failedAlone, report, jdk);
        report.put("readBackMillis", (System.nanoTime() - start) / 1_000_000);
        Map<String, ClassLoader> loaders = new HashMap<>();
        List<ClassEntry> entries = entries(modifiable, bytes, failedAlone, rewrittenHidden, loaders, report, jdk);
        Map<String, String> failed;
        synchronized (stats.failed) {
            failed = new HashMap<>(stats.failed);
        }
        new Verifier(policy)
                .safeConstruction(safeConstruction)
                .failedRewrites(failed)
                .earlyLoaded(EarlyClasses.reasons(stats, safeConstruction))
                .lookup((loader, name) -> packageInfo(loaders.get(loader), name))
                .verify(entries, report);
        openPaths().forEach((what, n) -> report.addFinding(new Finding("(linked at run time)", BOOT,
                "(" + n + (n == 1 ? " time)" : " times)"), 0, Finding.Kind.INDIRECT, what)));
        return report;
    }

    /**
     * The loaded classes whose bytes the JVM can hand back; the rest go into the report: vbd's own,
     * hidden classes vbd did not rewrite, and classes the JVM cannot modify.
     */
    private List<Class<?>> modifiable(Instrumentation inst, VerifyReport report, PreparedJdk jdk, HiddenClasses hidden,
                                      List<HiddenClasses.Rewritten> rewrittenHidden) {
        List<Class<?>> modifiable = new ArrayList<>();
        Map<String, Integer> passedThrough = new HashMap<>();
        for (HiddenClasses.Rewritten h : rewrittenHidden) passedThrough.merge(h.name().replace('/', '.'), 1, Integer::sum);
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (c.isArray() || c.isPrimitive()) continue;
            if (own.own(c)) {
                report.addExcluded("vbd's own class (the agent's jar)");
                continue;
            }
            if (c.isHidden()) {
                // the JVM names a hidden class after its class file, plus '/' and a suffix of its own
                String n = c.getName();
                String base = n.lastIndexOf('/') > 0 ? n.substring(0, n.lastIndexOf('/')) : n;
                if (passedThrough.merge(base, -1, Integer::sum) < 0) report.addHidden(n, hidden.whyLeft(base));
            } else if (!inst.isModifiableClass(c)) {
                ClassLoader l = c.getClassLoader();
                report.addUninspectable(c.getName(), loaderKey(l), "not modifiable: the JVM cannot hand its bytes back",
                        markerOf(c, l, c.getName().replace('.', '/'), jdk) != null);
            } else {
                modifiable.add(c);
            }
        }
        return modifiable;
    }

    /**
     * The bytes the JVM hands back for each class, retransformed in batches through this
     * transformer; a class that fails alone goes into {@code failedAlone} and the report.
     */
    private Map<Class<?>, byte[]> readBack(Instrumentation inst, List<Class<?>> modifiable, Set<Class<?>> failedAlone,
                                           VerifyReport report, PreparedJdk jdk) {
        Map<Class<?>, byte[]> bytes = Collections.synchronizedMap(new IdentityHashMap<>());
        captured = bytes;
        try {
            for (int i = 0; i < modifiable.size(); i += BATCH) {
                List<Class<?>> batch = modifiable.subList(i, Math.min(modifiable.size(), i + BATCH));
                try {
                    inst.retransformClasses(batch.toArray(Class<?>[]::new));
                } catch (Throwable t) {
                    // one bad class fails the whole batch: retry one by one to find it
                    for (Class<?> c : batch) {
                        if (bytes.containsKey(c)) continue;
                        try {
                            inst.retransformClasses(c);
                        } catch (Throwable one) {
                            failedAlone.add(c);
                            ClassLoader l = c.getClassLoader();
                            report.addUninspectable(c.getName(), loaderKey(l), "could not be read back: " + one,
                                    markerOf(c, l, c.getName().replace('.', '/'), jdk) != null);
                        }
                    }
                }
            }
        } finally {
            captured = null;
            inst.removeTransformer(this);
        }
        return bytes;
    }

    /** What the verifier reads: each class read back and each hidden class vbd rewrote; their loaders into {@code loaders}. */
    private List<ClassEntry> entries(List<Class<?>> modifiable, Map<Class<?>, byte[]> bytes, Set<Class<?>> failedAlone,
                                     List<HiddenClasses.Rewritten> rewrittenHidden, Map<String, ClassLoader> loaders,
                                     VerifyReport report, PreparedJdk jdk) {
        List<ClassEntry> entries = new ArrayList<>();
        for (Class<?> c : modifiable) {
            byte[] b = bytes.get(c);
            ClassLoader l = c.getClassLoader();
            String key = loaderKey(l);
            String internal = c.getName().replace('.', '/');
            if (b == null) {
                if (!failedAlone.contains(c)) {
                    report.addUninspectable(c.getName(), key, "retransformed, but the JVM handed back no bytes",
                            markerOf(c, l, internal, jdk) != null);
                }
                continue;
            }
            if (l != null) loaders.putIfAbsent(key, l);
            entries.add(ClassEntry.unmarked(key, () -> b, markerOf(c, l, internal, jdk)));
        }
        for (HiddenClasses.Rewritten h : rewrittenHidden) {
            String key = loaderKey(h.loader());
            if (h.loader() != null) loaders.putIfAbsent(key, h.loader());
            entries.add(new ClassEntry(key, h::bytes, null));
        }
        return entries;
    }

    /** The marker noted when the class loaded or, for classes loaded before the agent, in the prepared JDK. */
    private ClassFacts.Marker markerOf(Class<?> c, ClassLoader loader, String internal, PreparedJdk jdk) {
        Map<String, ClassFacts.Marker> byName = loader == null ? bootMarkers : markers.get(loader);
        ClassFacts.Marker m = byName == null ? null : byName.get(internal);
        if (m != null || jdk == null || !c.getModule().isNamed()) return m;
        byte[] prepared = jdk.find(c.getModule().getName(), internal);
        try {
            return prepared == null ? null : ClassFacts.read(prepared).marker;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** What the prepared JDK recorded of paths to operations it cannot fence (method handles, reflection). */
    @SuppressWarnings("unchecked")
    private static Map<String, Integer> openPaths() {
        try {
            return (Map<String, Integer>) Class.forName("java.util.concurrent.atomic.VbdRuntime", false, null)
                    .getMethod("openPaths").invoke(null);
        } catch (ReflectiveOperationException e) {
            return Map.of("the prepared JDK's record of indirect paths is unreadable: " + e, 1);
        }
    }

    /** Package descriptors, which may carry {@code @Relaxed}, even when never loaded as classes. */
    private static byte[] packageInfo(ClassLoader loader, String internalName) {
        if (loader == null || !internalName.endsWith("/package-info")) return null;
        try (InputStream in = loader.getResourceAsStream(internalName + ".class")) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    static String loaderKey(ClassLoader l) {
        if (l == null) return BOOT;
        String n = l.getName();
        return (n != null ? n : l.getClass().getName()) + "@" + Integer.toHexString(System.identityHashCode(l));
    }

    private static void write(Path target, String text) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        if (dir != null) Files.createDirectories(dir);
        // not Files.createTempFile: its random name needs SecureRandom, which a program may have broken
        Path tmp = target.resolveSibling(target.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
