package dev.vbd.agent.observe;

import java.lang.instrument.Instrumentation;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The JDK's classes the observer watches: those that hold a candidate method, with their nested
 * classes (a class's private fields are its nest's alone, and a nest is a top-level class and those
 * inside it). A JDK class the JVM or the observer itself runs on as it starts and records is never
 * watched (see {@link #watchable}).
 */
public final class JdkClasses {
    /** Internal names of the top-level classes watched. */
    private final Set<String> topLevel = new HashSet<>();

    JdkClasses(List<String> candidates) {
        for (String c : candidates) {
            String owner = c.substring(0, c.indexOf('#')).replace('.', '/');
            if (watchable(owner)) topLevel.add(topLevel(owner));
        }
    }

    /**
     * Whether a JDK class can be watched (internal or dotted name): not the classes that making an
     * object, a thread or a class runs through, not {@code java.lang.invoke} (lambdas, string
     * concatenation: the observer's own calls would link through it), not references (the observer's
     * weak keys), not the JDK's internals ({@code jdk.internal}, which stand in for the JVM), not the
     * atomics (whose calls the observer takes as SC accesses, {@link AtomicCalls}: they must stay
     * SC), and not vbd's own classes in the JDK.
     */
    public static boolean watchable(String className) {
        String c = className.replace('.', '/');
        String top = topLevel(c);
        return !(top.equals("java/lang/Object") || top.equals("java/lang/Thread") || top.equals("java/lang/Class")
                || top.equals("java/lang/ClassLoader") || top.equals("java/lang/System")
                || c.startsWith("java/lang/invoke/") || c.startsWith("java/lang/ref/") || c.startsWith("jdk/internal/")
                || c.startsWith("sun/instrument/") || c.startsWith("java/lang/instrument/")
                || c.startsWith("java/util/concurrent/atomic/") || c.startsWith("dev/vbd/"));
    }

    private static String topLevel(String internalName) {
        int dollar = internalName.indexOf('$', internalName.lastIndexOf('/') + 1);
        return dollar < 0 ? internalName : internalName.substring(0, dollar);
    }

    boolean isEmpty() {
        return topLevel.isEmpty();
    }

    /** Whether a class the JDK defines (by the boot or platform loader, or in the boot layer's modules) is watched. */
    boolean watches(Module module, ClassLoader loader, String className) {
        boolean jdk = loader == null || loader == ClassLoader.getPlatformClassLoader()
                || module != null && module.isNamed() && module.getLayer() == ModuleLayer.boot();
        return jdk && topLevel.contains(topLevel(className)) && watchable(className);
    }

    /**
     * Lets the modules of the watched classes read the observer's, so that the calls put into them
     * link, and retransforms the watched classes already loaded; a class that cannot be is reported.
     */
    void instrument(Instrumentation inst, Recorder recorder) {
        Set<String> packages = new HashSet<>();
        for (String t : topLevel) packages.add(t.substring(0, Math.max(0, t.lastIndexOf('/'))).replace('/', '.'));
        Module observer = Observer.class.getModule();
        for (Module m : ModuleLayer.boot().modules()) {
            if (m.getPackages().stream().anyMatch(packages::contains)) {
                inst.redefineModule(m, Set.of(observer), Map.of(), Map.of(), Set.of(), Map.of());
            }
        }
        for (Class<?> c : inst.getAllLoadedClasses()) {
            String name = c.getName().replace('.', '/');
            if (c.isArray() || c.isPrimitive() || !watches(c.getModule(), c.getClassLoader(), name)) continue;
            try {
                if (!inst.isModifiableClass(c)) throw new IllegalStateException("the JVM does not let it be changed");
                inst.retransformClasses(c);
            } catch (Throwable t) {
                recorder.unobserved(c.getName(), t);
            }
        }
    }
}
