package dev.vbd.agent;

import dev.vbd.core.analysis.ClassFacts;
import dev.vbd.core.policy.Policy;
import dev.vbd.core.rewrite.ClassRewriter;
import dev.vbd.core.rewrite.EarlyClassRewriter;
import dev.vbd.core.rewrite.FieldMode;
import dev.vbd.core.rewrite.FieldOracle;

import java.io.IOException;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Classes the JVM defined before the agent started: a custom system class loader
 * ({@code -Djava.system.class.loader}) and whatever its initialisation touched. No agent saw them
 * load, so they carry no rewrite, and retransformation cannot make their fields volatile now (it
 * may not change modifiers). What it can change are method bodies: at {@code premain} each such
 * class gets the body rewrite plus the fences of a volatile access around every access to a field
 * that should have been volatile ({@link EarlyClassRewriter}), and every class rewritten later
 * fences its accesses to those fields too ({@link #madeVolatile}, given to the rewriters).
 *
 * <p>The JDK's own classes come from the prepared JDK, already rewritten; everything else defined
 * before {@code premain}, outside vbd's own classes, is early.
 */
final class EarlyClasses implements ClassFileTransformer, FieldOracle {
    private static final int SHOWN = 5;

    private final Policy policy;
    private final EarlyClassRewriter bodies;
    private final Set<Class<?>> targets = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Fields that should be volatile and are not, as {@code name + ' ' + descriptor}. */
    private final Set<String> plainFields = ConcurrentHashMap.newKeySet();
    private final Map<ClassLoader, ClassRewriter> rewriters = Collections.synchronizedMap(new IdentityHashMap<>());
    /** Early class (dotted name) to why its bodies could not be fenced; such a class runs as compiled. */
    final Map<String, String> failed = Collections.synchronizedMap(new LinkedHashMap<>());
    /** Every early class, dotted, in load order as far as the JVM lists them. */
    final List<String> names = new ArrayList<>();
    private volatile boolean rewriting;
    /** Whether the classes rewritten from now on, and the JDK's, leave their fields plain in the JVM. */
    private final boolean fieldsPlain;

    private EarlyClasses(Policy policy, FieldMode fields) {
        this.policy = policy;
        this.bodies = new EarlyClassRewriter(policy);
        this.fieldsPlain = fields != null && fields.plainInJvm();
    }

    /**
     * The classes in {@code loaded} (taken at {@code premain}, before any transformer) that did not
     * come from the prepared JDK and are not vbd's own (by their jar, {@link OwnClasses}).
     */
    static EarlyClasses find(Class<?>[] loaded, Policy policy, OwnClasses own, Path preparedJdk, FieldMode fields) {
        Set<String> jdkModules = jdkModules(preparedJdk);
        EarlyClasses e = new EarlyClasses(policy, fields);
        for (Class<?> c : loaded) {
            if (c.isArray() || c.isPrimitive() || c.isHidden()) continue;
            Module m = c.getModule();
            if (m.isNamed() && m.getLayer() == ModuleLayer.boot() && (jdkModules == null || jdkModules.contains(m.getName()))) {
                continue;
            }
            if (own.own(c)) continue;
            e.targets.add(c);
            e.names.add(c.getName());
        }
        return e;
    }

    private static Set<String> jdkModules(Path preparedJdk) {
        if (preparedJdk == null) return null;
        try {
            return new HashSet<>(Files.readAllLines(preparedJdk.resolve("modules.txt"), StandardCharsets.UTF_8));
        } catch (IOException e) {
            return null;
        }
    }

    boolean isEmpty() {
        return targets.isEmpty();
    }

    /**
     * Learns which of their fields stay plain, then fences their bodies. Two passes, because a
     * body may touch the fields of an early class the first pass has not seen yet.
     */
    void cover(Instrumentation inst) {
        List<Class<?>> list = new ArrayList<>(targets);
        List<Class<?>> modifiable = new ArrayList<>();
        for (Class<?> c : list) {
            if (inst.isModifiableClass(c)) modifiable.add(c);
            else failed.put(c.getName(), "not modifiable");
        }
        // Stays registered: HotSpot keeps a class's original bytes once it has been retransformed
        // and starts every later retransformation (the verifier's read-back, another agent's)
        // from them, so the fences must be applied again each time.
        inst.addTransformer(this, true);
        retransform(inst, modifiable);
        rewriting = true;
        retransform(inst, modifiable);
        tellRuntime();
    }

    /**
     * The prepared JDK's reflection factory and method-handle factory record an accessor to one of
     * the fields that stayed plain, for the verifier: those paths have no bytecode to fence.
     */
    private void tellRuntime() {
        try {
            Class.forName("java.util.concurrent.atomic.VbdRuntime", false, null)
                    .getMethod("earlyFields", Class[].class, String[].class)
                    .invoke(null, targets.toArray(Class<?>[]::new), plainFields.toArray(String[]::new));
        } catch (ReflectiveOperationException e) {
            System.err.println("vbd: warning: the prepared JDK cannot record reflection and method handles on the fields"
                    + " of classes loaded before vbd's agent, so the verifier will not report them: " + e);
        }
    }

    private void retransform(Instrumentation inst, List<Class<?>> classes) {
        try {
            if (!classes.isEmpty()) inst.retransformClasses(classes.toArray(Class<?>[]::new));
        } catch (Throwable t) {
            for (Class<?> c : classes) {
                if (failed.containsKey(c.getName())) continue;
                try {
                    inst.retransformClasses(c);
                } catch (Throwable one) {
                    failed.put(c.getName(), String.valueOf(one));
                }
            }
        }
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
                            ProtectionDomain domain, byte[] bytes) {
        if (redefined == null || bytes == null || !targets.contains(redefined)) return null;
        try {
            ClassRewriter rewriter = rewriters.computeIfAbsent(loader, l -> new ClassRewriter(policy, new LoaderBytesSource(l, false)));
            // the original class file keeps what reconstituted bytes lose (invisible annotations)
            ClassFacts facts = originalFacts(loader, className);
            byte[] decideFrom = facts != null ? null : bytes;
            if (facts == null) facts = ClassFacts.read(bytes);
            if (!rewriting) {
                plainFields.addAll(EarlyClassRewriter.fieldsToFence(rewriter, facts, decideFrom));
                return null;
            }
            // with fenced fields, those of the JDK and of every class rewritten later stay plain in the JVM too
            FieldOracle fence = !fieldsPlain ? this
                    : (o, n, d) -> madeVolatile(o, n, d) || rewriter.fencedField(o, n, d);
            return bodies.rewriteBodies(bytes, facts, fence);
        } catch (Throwable t) {
            failed.put(className.replace('/', '.'), String.valueOf(t));
            return null;
        }
    }

    private static ClassFacts originalFacts(ClassLoader loader, String className) {
        byte[] original = new LoaderBytesSource(loader, false).find(className);
        if (original == null) return null;
        try {
            ClassFacts f = ClassFacts.read(original);
            return className.equals(f.name) ? f : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * Whether an access must be fenced because the field it names stays plain in the JVM. Matched
     * by name and type, whatever the owner named in the instruction (a subclass, or a class that
     * declares a field of the same name and type): a field that is volatile after all only gets
     * fences it does not need.
     */
    @Override
    public boolean madeVolatile(String owner, String name, String descriptor) {
        return plainFields.contains(name + ' ' + descriptor);
    }

    boolean anyPlainFields() {
        return !plainFields.isEmpty();
    }

    /** For the verifier: why each early class is uncovered (by internal name). */
    static Map<String, String> reasons(RewriteStats stats, boolean safeConstruction) {
        Map<String, String> out = new HashMap<>();
        for (String n : stats.early) {
            String unfenced = stats.earlyUnfenced.get(n);
            out.put(n.replace('.', '/'), safeConstruction ? "loaded before vbd's agent started: constructors as compiled"
                    : unfenced != null
                    ? "loaded before vbd's agent started, and could not be fenced (" + unfenced + "): runs as compiled"
                    : "loaded before vbd's agent started: fields as compiled (not volatile), accesses to them fenced");
        }
        return out;
    }

    /** What {@link #warning} says under safe construction, where the early classes run as compiled. */
    String constructionWarning() {
        return "vbd: warning: " + names.size() + (names.size() == 1 ? " class was" : " classes were")
                + " loaded before vbd's agent started, so their constructors run as compiled, without safe construction: "
                + String.join(", ", names.subList(0, Math.min(SHOWN, names.size())))
                + (names.size() > SHOWN ? ", ... (" + (names.size() - SHOWN) + " more)" : "")
                + ". --strict makes this an error.";
    }

    /** One paragraph for stderr, said once at start-up. */
    String warning(boolean strict) {
        StringBuilder sb = new StringBuilder();
        sb.append("vbd: ").append(strict ? "error: " : "warning: ").append(names.size())
                .append(names.size() == 1 ? " class was" : " classes were")
                .append(" loaded before vbd's agent started, so the JVM runs their field declarations as compiled: ");
        sb.append(String.join(", ", names.subList(0, Math.min(SHOWN, names.size()))));
        if (names.size() > SHOWN) sb.append(", ... (").append(names.size() - SHOWN).append(" more)");
        sb.append(".\nvbd: (typically a custom system class loader, -Djava.system.class.loader, and the classes its"
                + " initialisation touches)");
        if (strict) {
            sb.append("\nvbd: --strict refuses to run them; without it, vbd fences their method bodies and every access"
                    + " to their fields, and only reflection and method handles on those fields stay plain (the verifier"
                    + " reports each).");
            return sb.toString();
        }
        sb.append("\nvbd: their method bodies and every access to their fields are fenced instead; reflection and"
                + " method handles on those fields stay plain (not sequentially consistent; the verifier reports each)."
                + " --strict makes this an error.");
        synchronized (failed) {
            if (!failed.isEmpty()) {
                sb.append("\nvbd: ").append(failed.size()).append(" of them could not be fenced and run as compiled"
                        + " (not sequentially consistent): ");
                List<String> shown = new ArrayList<>();
                for (Map.Entry<String, String> f : failed.entrySet()) {
                    if (shown.size() == SHOWN) break;
                    shown.add(f.getKey() + " (" + f.getValue() + ")");
                }
                sb.append(String.join(", ", shown));
            }
        }
        return sb.toString();
    }
}
