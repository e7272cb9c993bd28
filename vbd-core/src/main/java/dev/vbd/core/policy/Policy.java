package dev.vbd.core.policy;

import java.util.Arrays;
import java.util.List;

/**
 * The one place that decides scope: which classes vbd leaves alone, which code and fields are
 * relaxed, which final fields must stay final. The rewriter and the verifier only ask.
 * All names here are JVM internal names ({@code java/util/HashMap}).
 */
public final class Policy {
    /**
     * vbd's runtime classes, which vbd itself patches into the prepared JDK's java.base (and, in a
     * runtime image, its rewriting, relocated to {@code jdk.internal.misc.Vbd_*}). Honoured only for
     * classes the JDK's own class loaders define ({@link #exclusion}): a program's class loader may
     * name a class anything, so no name stands for vbd's own there.
     */
    private static final List<String> RUNTIME_PREFIXES = List.of(
            "java/util/concurrent/atomic/VbdRuntime", "java/util/concurrent/atomic/VbdFieldModifiers",
            "java/util/concurrent/atomic/VbdSpeculation",
            "jdk/internal/misc/Vbd", "jdk/internal/loader/VbdClassPath",
            "java/lang/VbdDefineClass", "java/lang/invoke/VbdMethodHandles");

    /**
     * Packages whose final instance fields HotSpot trusts as constants (java.lang.invoke and
     * friends): they stay final even if a constructor leaks {@code this}, because breaking the
     * constant folding costs more than any fence. The JDK's own code there is correctly
     * synchronised for the JMM.
     */
    private static final List<String> TRUSTED_FINAL_PREFIXES = List.of(
            "java/lang/invoke/", "jdk/internal/invoke/", "jdk/internal/foreign/", "java/lang/foreign/",
            "jdk/internal/vm/vector/", "jdk/incubator/vector/");

    private final RelaxedConfig builtin;
    private final RelaxedConfig user;

    public Policy(RelaxedConfig user) {
        this.builtin = loadBuiltin();
        this.user = user;
    }

    public static Policy defaults() {
        return new Policy(RelaxedConfig.empty());
    }

    /**
     * The relaxed scopes vbd always applies to the JDK, in the config file's syntax. A constant
     * rather than a resource: a runtime image reads it before {@code main}, where reading a
     * resource would open the image's module reader for nothing else.
     */
    static final String JDK_BUILTIN = """
            # Relaxed scopes vbd always applies to the JDK. They are part of the mechanism, not a tuning:
            # the plain access modes of jdk.internal.misc.Unsafe and VarHandle must stay plain inside their
            # own implementations, because every call site that asks for a plain mode is rewritten to the
            # volatile mode instead, and relaxed code reaches plain accesses through them.
            # sun.misc.Unsafe is not among them: it only delegates to jdk.internal.misc.Unsafe, and its
            # rewritten body is what method references, method handles and reflection on it reach.
            class jdk.internal.misc.Unsafe
            class java.lang.invoke.VarHandle*
            class java.lang.invoke.VarForm
            class java.lang.invoke.VarHandles

            # Bulk operations: their bodies are fenced as a whole on entry and exit (the paper's memcpy
            # rule), so the element accesses inside carry no order among themselves.
            method java.util.Arrays#fill
            method java.util.Arrays#copyOf
            method java.util.Arrays#copyOfRange
            """;

    private static RelaxedConfig loadBuiltin() {
        try {
            return RelaxedConfig.parse("vbd's built-in JDK scopes", Arrays.asList(JDK_BUILTIN.split("\n")));
        } catch (RelaxedConfigException e) {
            throw new IllegalStateException("built-in relaxed scopes unreadable: " + e.getMessage(), e);
        }
    }

    /**
     * Why a class is left as it is, or null if vbd rewrites it. {@code jdkLoader}: whether the boot
     * or platform class loader defines the class, which only the prepared JDK's classes are. Where a
     * program's loader defines it, the name says nothing, and the answer is always null: vbd's
     * agent recognises its own classes by where they come from, not here.
     */
    public String exclusion(String internalName, boolean jdkLoader) {
        if (!jdkLoader) return null;
        for (String p : RUNTIME_PREFIXES) {
            if (internalName.startsWith(p)) {
                return "vbd's runtime class in the prepared JDK";
            }
        }
        return null;
    }

    public boolean classRelaxed(String internalName, boolean annotated, boolean packageAnnotated) {
        if (annotated || packageAnnotated) return true;
        String dotted = dotted(internalName);
        return builtin.classRelaxed(dotted) || user.classRelaxed(dotted);
    }

    public boolean methodRelaxed(String owner, String name, String desc, boolean annotated, boolean classRelaxed) {
        if (annotated || classRelaxed) return true;
        String dotted = dotted(owner);
        return builtin.methodRelaxed(dotted, name, desc) || user.methodRelaxed(dotted, name, desc);
    }

    /**
     * A method whose array element accesses alone are relaxed: they compile as on stock Java, while
     * its field accesses stay SC. Asked only of methods that are not relaxed as a whole.
     */
    public boolean arraysRelaxed(String owner, String name, String desc) {
        String dotted = dotted(owner);
        return builtin.arraysRelaxed(dotted, name, desc) || user.arraysRelaxed(dotted, name, desc);
    }

    /**
     * A relaxed field is never made volatile. {@code stable} marks the JDK's {@code @Stable}
     * fields: lazily computed caches whose benign races the JDK designs for and that C2
     * constant-folds; they keep their declared semantics. Callers pass it only for classes of the
     * boot and platform class loaders: HotSpot ignores {@code @Stable} anywhere else, and so does vbd.
     */
    public boolean fieldRelaxed(String owner, String name, boolean annotated, boolean classRelaxed, boolean stable) {
        if (annotated || classRelaxed || stable) return true;
        String dotted = dotted(owner);
        return builtin.fieldRelaxed(dotted, name) || user.fieldRelaxed(dotted, name);
    }

    /**
     * Final instance fields that stay final whatever the constructors do. Records are not among
     * them: HotSpot trusts their finals too, but a record whose canonical constructor leaks
     * {@code this} can be seen with its components unset, as any other class.
     */
    public boolean trustedFinal(String owner) {
        for (String p : TRUSTED_FINAL_PREFIXES) {
            if (owner.startsWith(p)) return true;
        }
        return false;
    }

    public int userRules() { return user.size(); }

    static String dotted(String internalName) {
        return internalName.replace('/', '.');
    }
}
