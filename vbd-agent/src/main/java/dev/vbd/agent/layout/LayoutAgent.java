package dev.vbd.agent.layout;

import dev.vbd.agent.ProgramClasses;
import dev.vbd.core.verify.Json;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;

import java.io.IOException;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The agent's mode for {@code vbd layout}, on a stock JDK: the probe's calls in the program's
 * classes ({@link LayoutVisitor}), every access fed to a model of the cache lines
 * ({@link CacheLines}), and at exit what the model saw, as JSON in {@code DIR/lines.json}.
 */
public final class LayoutAgent {
    public static final String LINES = "lines.json";

    private LayoutAgent() {}

    public static void start(Path dir, Instrumentation inst) throws IOException {
        Offsets offsets;
        try {
            offsets = new Offsets(inst);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IOException("cannot find the JVM's field offsets: " + e, e);
        }
        Targets targets = new Targets();
        CacheLines lines = new CacheLines(targets, offsets, inst);
        List<String> unwatched = Collections.synchronizedList(new ArrayList<>());
        int[] watched = new int[1];
        long start = System.nanoTime();
        LayoutProbe.start(lines);
        inst.addTransformer(new ClassFileTransformer() {
            @Override
            public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
                                    ProtectionDomain domain, byte[] bytes) {
                if (bytes == null || className == null || redefined != null
                        || !ProgramClasses.isProgram(module, loader, className)) return null;
                try {
                    ClassReader reader = new ClassReader(bytes);
                    // COMPUTE_MAXS: the calls put in need operand stack, and change no frame
                    ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
                    reader.accept(new LayoutVisitor(writer, targets), ClassReader.EXPAND_FRAMES);
                    synchronized (watched) {
                        watched[0]++;
                    }
                    return writer.toByteArray();
                } catch (Throwable t) {
                    unwatched.add(className.replace('/', '.') + ": " + t);
                    return null;
                }
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LayoutProbe.start(null);
            double seconds = (System.nanoTime() - start) / 1e9;
            try {
                int classes;
                synchronized (watched) {
                    classes = watched[0];
                }
                Files.writeString(dir.resolve(LINES), Json.write(report(lines, targets, seconds, classes, unwatched)),
                        StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException e) {
                System.err.println("vbd: layout: could not write " + dir.resolve(LINES) + ": " + e);
            }
        }, "vbd-layout"));
    }

    static Map<String, Object> report(CacheLines lines, Targets targets, double seconds, int classes, List<String> unwatched) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("seconds", seconds);
        r.put("watchedClasses", classes);
        synchronized (unwatched) {
            r.put("unwatched", new ArrayList<Object>(unwatched));
        }
        r.put("accesses", lines.accesses());
        r.put("lines", CacheLines.SLOTS);
        List<String> names = lines.threadNames();
        r.put("threads", new ArrayList<Object>(names));
        List<Object> found = new ArrayList<>();
        for (CacheLines.Finding f : lines.findings()) {
            Map<String, Object> m = new LinkedHashMap<>();
            synchronized (f) {
                m.put("kind", f.kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
                m.put("misses", Math.max(f.misses[0], f.misses[1]));
                m.put("threads", threads(f.threads, names));
                m.put("distance", f.distance);
            }
            m.put("a", target(targets.get(f.a), names));
            m.put("b", target(targets.get(f.b), names));
            found.add(m);
        }
        r.put("findings", found);
        return r;
    }

    private static Map<String, Object> target(Targets.Target t, List<String> names) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", t.kind.name().toLowerCase(java.util.Locale.ROOT));
        m.put("describe", t.describe());
        if (t.kind == Targets.Kind.ARRAY) {
            m.put("type", t.type);
            if (t.site != null) m.put("site", t.site);
            if (t.storedIn != null) m.put("storedIn", t.storedIn);
        } else {
            m.put("class", t.declaredBy != null ? t.declaredBy : t.owner);
            m.put("field", t.name);
            m.put("descriptor", t.type);
        }
        m.put("accesses", t.accesses.sum());
        m.put("writes", t.writes.sum());
        m.put("writers", threads(t.writers.get(), names));
        m.put("accessors", threads(t.accessors.get(), names));
        return m;
    }

    private static List<Object> threads(long bits, List<String> names) {
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            if ((bits & (1L << i)) != 0) out.add(i < names.size() ? names.get(i) : "thread " + i);
        }
        return out;
    }
}
