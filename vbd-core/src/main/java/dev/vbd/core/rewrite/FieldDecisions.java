package dev.vbd.core.rewrite;

import dev.vbd.core.ClassBytesSource;
import dev.vbd.core.Consulted;
import dev.vbd.core.analysis.ClassFacts;
import dev.vbd.core.analysis.ConstructorLeaks;
import dev.vbd.core.policy.Policy;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What vbd decides about fields, and the answers the rewrite of one class asks about the fields
 * of others: which declarations change, which fields vbd made volatile, which it left plain in
 * the JVM and fences instead, and which the program declares. Each answer about another class is
 * noted ({@link Consulted}), so that a kept rewrite can ask it again. Reads other classes through
 * the source and caches what it learns about them. Thread-safe.
 */
final class FieldDecisions implements FieldOracle {
    private static final ClassFacts MISSING = new ClassFacts();
    private static final String[] JDK_PREFIXES = {"java/", "javax/", "jdk/", "sun/", "com/sun/"};

    private final Policy policy;
    private final ClassBytesSource source;
    private final ConstructorLeaks leaks;
    /**
     * Whether the classes come from the boot or platform class loader: HotSpot honours the JDK's
     * VM annotations, {@code @Stable} among them, there alone, so only there does vbd keep a
     * {@code @Stable} field's declared semantics.
     */
    private final boolean privileged;
    private final Map<String, ClassFacts> factsCache = new ConcurrentHashMap<>();
    private final Map<String, Map<String, FieldDecision>> decisionCache = new ConcurrentHashMap<>();
    private final Map<String, Boolean> packageRelaxed = new ConcurrentHashMap<>();
    /** Which fields of the prepared JDK need fences, if known ({@link ClassRewriter#jdkFencedFields}). */
    private volatile JdkFencedFields jdkFenced;
    /** The prepared JDK's own class files, against which a marker is checked ({@link ClassRewriter#jdkClasses}). */
    private volatile ClassBytesSource jdkClasses;

    FieldDecisions(Policy policy, ClassBytesSource source, ConstructorLeaks leaks, boolean privileged) {
        this.policy = policy;
        this.source = source;
        this.leaks = leaks;
        this.privileged = privileged;
    }

    void jdkFencedFields(JdkFencedFields table) {
        this.jdkFenced = table;
    }

    void jdkClasses(ClassBytesSource jdk) {
        this.jdkClasses = jdk;
    }

    /** Whether the marker on these bytes of the class is vbd's own ({@link ClassRewriter#jdkClasses}). */
    boolean markerTrusted(String className, byte[] bytes) {
        if (privileged) return true;
        ClassBytesSource j = jdkClasses;
        if (j == null) return false;
        byte[] supplied = j.find(className);
        return supplied != null && Arrays.equals(supplied, bytes);
    }

    /** The facts of a class as far as they can be trusted: a marker that is not vbd's own is dropped. */
    ClassFacts trusted(ClassFacts facts, byte[] bytes) {
        if (facts.marker != null && !markerTrusted(facts.name, bytes)) facts.marker = null;
        return facts;
    }

    /**
     * Remembers the facts of a class being rewritten: relaxed code may touch its own class's
     * fields, and a class generated at run time has no bytes for the source to find.
     */
    void remember(String className, ClassFacts facts) {
        factsCache.putIfAbsent(className, facts);
    }

    /**
     * The declaration changes for each field of a class, by name (of fields sharing a name, the
     * last declared; the rewrite itself decides each field by name and descriptor).
     */
    Map<String, FieldDecision> decide(ClassFacts facts, byte[] bytes) {
        Map<String, FieldDecision> byName = new LinkedHashMap<>();
        Map<String, FieldDecision> each = decideEach(facts, bytes);
        for (ClassFacts.FieldFact f : facts.declaredFields) byName.put(f.name(), each.get(fieldKey(f.name(), f.desc())));
        return byName;
    }

    /** A class file may reuse a field name with another type: the JVM tells them apart by descriptor. */
    static String fieldKey(String name, String desc) {
        return name + ' ' + desc;
    }

    /** The declaration change of each field, by {@link #fieldKey}. */
    Map<String, FieldDecision> decideEach(ClassFacts facts, byte[] bytes) {
        Map<String, FieldDecision> cached = decisionCache.get(facts.name);
        if (cached != null && bytes == null) return cached;
        boolean classRelaxed = classRelaxed(facts);
        Set<String> unsafeFinals = null;
        Map<String, FieldDecision> out = new LinkedHashMap<>();
        for (ClassFacts.FieldFact f : facts.declaredFields) {
            FieldDecision d;
            if (f.isVolatile()
                    || policy.fieldRelaxed(facts.name, f.name(), f.relaxedAnnotation(), classRelaxed, f.stable() && privileged)) {
                d = FieldDecision.KEEP;
            } else if (f.isFinal()) {
                // an interface's fields must be final (the JVM rejects the class otherwise)
                if (policy.trustedFinal(facts.name) || facts.isInterface()) {
                    d = FieldDecision.KEEP;
                } else {
                    if (unsafeFinals == null) {
                        unsafeFinals = bytes != null ? leaks.unsafeFinals(bytes) : unsafeFinalsOf(facts.name);
                    }
                    d = unsafeFinals.contains(f.name()) ? FieldDecision.UNFINAL_VOLATILE : FieldDecision.KEEP;
                }
            } else {
                d = FieldDecision.VOLATILE;
            }
            out.put(fieldKey(f.name(), f.desc()), d);
        }
        decisionCache.put(facts.name, out);
        return out;
    }

    private Set<String> unsafeFinalsOf(String className) {
        byte[] b = source.find(className);
        return b == null ? Set.of() : leaks.unsafeFinals(b);
    }

    boolean classRelaxed(ClassFacts facts) {
        boolean packageRelaxed = packageAnnotated(facts.name);
        Consulted.note(Consulted.Question.PACKAGE_RELAXED, facts.name, packageRelaxed);
        return policy.classRelaxed(facts.name, facts.relaxedAnnotation, packageRelaxed);
    }

    boolean packageAnnotated(String className) {
        int slash = className.lastIndexOf('/');
        if (slash < 0) return false;
        String pkg = className.substring(0, slash);
        Boolean known = packageRelaxed.get(pkg);
        if (known != null) return known;
        // not inside computeIfAbsent: finding the bytes may load, and so rewrite, a class of the same package
        boolean annotated = false;
        byte[] info = source.find(pkg + "/package-info");
        if (info != null) {
            try {
                annotated = ClassFacts.read(info).relaxedAnnotation;
            } catch (RuntimeException e) {
                annotated = false;
            }
        }
        Boolean prior = packageRelaxed.putIfAbsent(pkg, annotated);
        return prior != null ? prior : annotated;
    }

    private ClassFacts facts(String className) {
        ClassFacts f = factsCache.get(className);
        if (f != null) return f == MISSING ? null : f;
        byte[] b = source.find(className);
        ClassFacts read = null;
        if (b != null) {
            try {
                read = trusted(ClassFacts.read(b), b);
            } catch (RuntimeException e) {
                read = null;
            }
        }
        factsCache.put(className, read == null ? MISSING : read);
        return read;
    }

    /**
     * Did vbd (and not the programmer) make this field volatile? Resolves the field as the JVM
     * does, through superclasses. Unknown classes answer false: the access then stays volatile,
     * which is correct, only not relaxed.
     */
    @Override
    public boolean madeVolatile(String owner, String name, String descriptor) {
        boolean made = madeVolatileNow(owner, name, descriptor);
        Consulted.note(Consulted.Question.MADE_VOLATILE, Consulted.field(owner, name, descriptor), made);
        return made;
    }

    private boolean madeVolatileNow(String owner, String name, String descriptor) {
        String cls = owner;
        for (int depth = 0; cls != null && depth < 64; depth++) {
            ClassFacts f = facts(cls);
            if (f == null) return false;
            Boolean made = changedHere(cls, f, name, descriptor, true);
            if (made != null) return made;
            cls = f.superName;
        }
        return false;
    }

    /**
     * Whether vbd makes the field sequentially consistent, seen as volatile in the JVM
     * ({@code volatileInJvm}) or plain: null where class {@code cls} does not declare it.
     */
    private Boolean changedHere(String cls, ClassFacts f, String name, String descriptor, boolean volatileInJvm) {
        ClassFacts.FieldFact field = f.field(name, descriptor);
        if (field == null) return null;
        // the marker lists names only; what vbd flipped is volatile in the rewritten class, or plain with fenced fields
        if (f.marker != null) return field.isVolatile() == volatileInJvm && f.marker.flipped(name);
        if (policy.exclusion(cls, privileged) != null) return false;
        return decideEach(f, null).get(fieldKey(name, descriptor)) != FieldDecision.KEEP;
    }

    /**
     * Does an access to this field need the fences of a volatile access: did vbd make it
     * sequentially consistent while leaving it plain in the JVM ({@link ClassRewriter#fields})?
     * Resolves the field as the JVM does. A field of a class this rewriter cannot read counts as
     * fenced: it may be, and fences on an access that needs none only cost time. For the same
     * reason a kept rewrite is not asked again whether its fenced accesses still need fences.
     */
    boolean fenced(String owner, String name, String descriptor) {
        boolean f = fencedNow(owner, name, descriptor);
        Consulted.note(Consulted.Question.FENCED, Consulted.field(owner, name, descriptor), f);
        return f;
    }

    /** As {@link #fenced}, without noting the answer. */
    boolean fencedNow(String owner, String name, String descriptor) {
        String cls = owner;
        JdkFencedFields table = jdkFenced;
        for (int depth = 0; cls != null && depth < 64; depth++) {
            // the field is declared here or above, all of it the JDK's
            if (table != null && cls.startsWith("java/")) return table.fenced(name, descriptor);
            // a JDK class comes marked from the prepared JDK (volatile or fenced fields, as it was
            // prepared), or, while the JDK itself is prepared, unmarked, decided as any other
            ClassFacts f = facts(cls);
            if (f == null) return true;
            Boolean fenced = changedHere(cls, f, name, descriptor, false);
            if (fenced != null) return fenced;
            cls = f.superName;
        }
        return true;
    }

    /**
     * Whether a field is declared by a class of the program, which this rewriter gives the
     * speculation checks on every access, so that an access to it may skip its fences while the
     * current thread owns the object. A field the JDK declares is not: the JDK's own code accesses
     * it fenced and unchecked, so another thread's access through a JDK method would switch nothing.
     * An unreadable class in the way counts as the JDK.
     */
    boolean declaredByProgram(String owner, String name, String descriptor) {
        boolean p = declaredByProgramNow(owner, name, descriptor);
        Consulted.note(Consulted.Question.DECLARED_BY_PROGRAM, Consulted.field(owner, name, descriptor), p);
        return p;
    }

    private boolean declaredByProgramNow(String owner, String name, String descriptor) {
        String cls = owner;
        for (int depth = 0; cls != null && depth < 64; depth++) {
            if (isJdkName(cls)) return false;
            ClassFacts f = facts(cls);
            if (f == null || policy.exclusion(cls, privileged) != null) return false;
            if (f.field(name, descriptor) != null) return true;
            cls = f.superName;
        }
        return false;
    }

    /**
     * Whether a class gets the owner field of speculative fields: whether it is the topmost
     * program class of its hierarchy. A superclass of the JDK, or one this rewriter will not give
     * an owner (unreadable, or left alone by the policy), makes it so. A mistake either way is
     * safe: a hierarchy in which no class declares the field is always fenced, and of two classes
     * that declare it the runtime uses the upper.
     */
    boolean ownerRoot(ClassFacts facts) {
        String s = facts.superName;
        if (facts.isInterface() || s == null || isJdkName(facts.name)) return false;
        if (isJdkName(s)) return true;
        return policy.exclusion(s, privileged) != null || facts(s) == null;
    }

    /**
     * A class of the JDK's packages, even one a class loader of its own defines: the accessors
     * reflection generates on JDK 17 are such, and their loader resolves no name of theirs, their
     * own included, so they get no owner field to store into.
     */
    private static boolean isJdkName(String name) {
        for (String jdk : JDK_PREFIXES) if (name.startsWith(jdk)) return true;
        return false;
    }
}
