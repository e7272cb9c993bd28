package dev.vbd.core.rewrite;

import dev.vbd.core.ClassBytesSource;
import dev.vbd.core.Consulted;
import dev.vbd.core.Conventions;
import dev.vbd.core.analysis.ClassFacts;
import dev.vbd.core.analysis.ConstructorLeaks;
import dev.vbd.core.analysis.LocalArrays;
import dev.vbd.core.policy.Policy;
import dev.vbd.core.rewrite.jdk.JdkPatches;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassTooLargeException;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodTooLargeException;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.MethodNode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Rewrites one class file for sequential consistency by default. Scope comes from the
 * {@link Policy}; each kind of access is handled by its own visitor:
 * field declarations ({@link #decide}), array elements ({@link ArrayAccessVisitor}),
 * bulk operations ({@link BulkOperationVisitor}), weak access modes ({@link WeakModeVisitor}),
 * and, in relaxed methods, plain access to fields vbd made volatile ({@link RelaxedFieldAccessVisitor}).
 * Thread-safe; caches what it learns about other classes.
 */
public final class ClassRewriter implements FieldOracle {
    private final Policy policy;
    private final ClassBytesSource source;
    private final ConstructorLeaks leaks;
    private final Map<String, ClassFacts> factsCache = new ConcurrentHashMap<>();
    private final Map<String, Map<String, FieldDecision>> decisionCache = new ConcurrentHashMap<>();
    private final Map<String, Boolean> packageRelaxed = new ConcurrentHashMap<>();
    /** What each class this rewriter was asked to rewrite was defined from ({@link #definedLeakFree}). */
    private final DefinedClasses defined = new DefinedClasses();
    private static final ClassFacts MISSING = new ClassFacts();

    private final boolean linkPlainFields;
    /**
     * Whether the classes come from the boot or platform class loader: HotSpot honours the JDK's
     * VM annotations, {@code @Stable} among them, there alone, so only there does vbd keep a
     * {@code @Stable} field's declared semantics.
     */
    private final boolean privileged;
    private final boolean jdk;
    /** Fields that stay plain in the JVM though they should be volatile (see {@link #fenceFields}). */
    private volatile FieldOracle plainInJvm;
    /** Where rewrites are kept between runs, if anywhere (see {@link #store}). */
    private volatile RewriteStore store;
    /** How fields are made sequentially consistent (see {@link #fields}). */
    private volatile FieldMode fieldMode = FieldMode.VOLATILE;
    /** Which accesses stay plain because no other thread can see them (see {@link #optimise}). */
    private volatile Optimisations optimisations = Optimisations.ALL;
    /** Which fields of the prepared JDK need fences, if known (see {@link #jdkFencedFields}). */
    private volatile JdkFencedFields jdkFenced;
    /** The prepared JDK's own class files, against which a marker is checked (see {@link #jdkClasses}). */
    private volatile ClassBytesSource jdkClasses;

    /** A rewriter for application classes loaded at run time, after the JVM has booted. */
    public ClassRewriter(Policy policy, ClassBytesSource source) {
        this(policy, source, false);
    }

    /** A rewriter for classes loaded at run time; {@code privileged} for the boot and platform class loaders. */
    public ClassRewriter(Policy policy, ClassBytesSource source, boolean privileged) {
        this(policy, source, true, privileged, false);
    }

    private ClassRewriter(Policy policy, ClassBytesSource source, boolean linkPlainFields, boolean privileged,
                          boolean jdk) {
        this.policy = policy;
        this.source = source;
        this.leaks = new ConstructorLeaks(source);
        this.linkPlainFields = linkPlainFields;
        this.privileged = privileged;
        this.jdk = jdk;
    }

    /**
     * A rewriter for the JDK's own modules. JDK code may run before {@code java.lang.invoke} works,
     * so relaxed JDK methods cannot link plain field access through invokedynamic: with volatile
     * fields their accesses to fields vbd made volatile stay volatile (relax the field or its class
     * for plain access); with {@link FieldMode#FENCED} fields they are the plain instruction. The
     * JDK methods that report field modifiers to programs are patched ({@link JdkPatches}).
     */
    public static ClassRewriter forJdk(Policy policy, ClassBytesSource source) {
        return new ClassRewriter(policy, source, false, true, true);
    }

    public Policy policy() { return policy; }

    /**
     * Judges the superclasses of the classes this rewriter rewrites by {@code linker}, the way
     * their defining loader links them, rather than by the bytes the source finds under their
     * names ({@link ConstructorLeaks.Linker}); set before the first rewrite.
     */
    public ClassRewriter superclassesLinkedBy(ConstructorLeaks.Linker linker) {
        leaks.linkedBy(linker);
        return this;
    }

    /**
     * Whether no constructor of class {@code internalName}, which this rewriter's loader defined,
     * can leak {@code this}: false unless the bytes the source finds under its name are the ones
     * the class was defined from (through this rewriter), so that a loader whose resources are not
     * what it defines, or a class defined before vbd started, counts as leaking.
     */
    public boolean definedLeakFree(String internalName) {
        byte[] b = source.find(internalName);
        return b != null && defined.definedFrom(internalName, b) && leaks.leakFree(internalName, b);
    }

    /** Whether no constructor of class {@code internalName} can leak {@code this}, judged by the bytes the source finds. */
    public boolean leakFree(String internalName) {
        return leaks.leakFree(internalName);
    }

    /**
     * Fields of classes defined before the agent started keep their declared modifiers; accesses
     * to them from the classes rewritten from now on get the fences of a volatile access instead.
     */
    public ClassRewriter fenceFields(FieldOracle plainInJvm) {
        this.plainInJvm = plainInJvm;
        return this;
    }

    /**
     * {@link FieldMode#FENCED}: leaves the fields this rewriter makes sequentially consistent plain in the JVM (a {@code final}
     * field a constructor may leak still loses {@code final}), and fences each access to them
     * outside relaxed code instead, as array elements are. Relaxed code then accesses them with the
     * plain instruction, as on stock Java, in every tier; a constructor's accesses to its own
     * object before the object can have left it stay plain too. Reflection, method handles and
     * {@code VarHandle}s reach such a field through the JDK's {@code Unsafe} and {@code VarHandle}
     * call sites, which vbd rewrites to their volatile modes. The JDK's own modules take it too
     * ({@link FieldMode#jdk()}); a program's classes must then be rewritten with fenced or
     * speculative fields, whose accesses to the JDK's fields read the fenced ones from the JDK's markers.
     *
     * <p>{@link FieldMode#SPECULATIVE}: as fenced, and the topmost program class of each hierarchy
     * gets an owner field set on entry to its constructors; accesses to instance fields skip their
     * fences while the current thread owns the object ({@link SpeculativeFieldVisitor}). Its
     * soundness argument holds for x86-64's total store order: elsewhere the accesses stay fenced.
     */
    public ClassRewriter fields(FieldMode mode) {
        if (jdk && mode != mode.jdk()) throw new IllegalStateException("the JDK's modules take volatile, fenced or safe-construction fields, not " + mode.word());
        this.fieldMode = mode;
        return this;
    }

    /**
     * Which of the rewrite's proofs that no other thread can see an access it uses to leave the
     * access plain: {@link Optimisations#ALL} unless measuring what each buys.
     */
    public ClassRewriter optimise(Optimisations which) {
        this.optimisations = which;
        return this;
    }

    /**
     * Answers whether an access to a field of a {@code java.*} class needs fences from the prepared
     * JDK's table instead of the class file. Only the boot and platform class loaders define
     * {@code java.*} classes, so each is the prepared JDK's, unless a module of the JDK was patched
     * at launch or the class was made at run time; a program's classes cannot name the latter, and
     * the caller leaves the table out for the former. Not for the JDK's own class loaders: their
     * classes made at run time access their own fields.
     */
    public ClassRewriter jdkFencedFields(JdkFencedFields table) {
        if (jdk || privileged) throw new IllegalStateException("the JDK's own classes are not rewritten with the JDK's table");
        this.jdkFenced = table;
        return this;
    }

    /**
     * Where the prepared JDK's own class files are found. Only a class the prepared JDK supplies
     * carries vbd's marker legitimately; a program can write the marker into its own class files as
     * easily as any other annotation. So for a rewriter of a program's class loader a marker counts
     * (the class is taken as rewritten, and its fields as the marker lists them) only where the
     * JDK's modules hold the very same class file; without this source no marker counts. A
     * rewriter of the JDK's own loaders, which define nothing but the prepared JDK's classes,
     * trusts the marker as it is.
     */
    public ClassRewriter jdkClasses(ClassBytesSource jdk) {
        this.jdkClasses = jdk;
        return this;
    }

    /** Whether the marker on these bytes of the class is vbd's own ({@link #jdkClasses}). */
    private boolean markerTrusted(String className, byte[] bytes) {
        if (privileged) return true;
        ClassBytesSource j = jdkClasses;
        if (j == null) return false;
        byte[] supplied = j.find(className);
        return supplied != null && Arrays.equals(supplied, bytes);
    }

    /** The facts of a class as far as they can be trusted: a marker that is not vbd's own is dropped. */
    private ClassFacts trusted(ClassFacts facts, byte[] bytes) {
        if (facts.marker != null && !markerTrusted(facts.name, bytes)) facts.marker = null;
        return facts;
    }

    /**
     * Keeps each rewrite in {@code store} and takes rewrites from it. A kept rewrite stands in for a
     * new one only for the same bytes, the same kind of rewriter, and the same answers about other
     * classes ({@link Consulted}); the store must belong to this policy and this version of vbd.
     * Not with {@link #fenceFields}, whose answers depend on what the JVM loaded before. A class
     * taken from the store is not read: relaxed code rewritten later that touches the fields of a
     * class generated at run time (whose bytes the source cannot find) keeps that access volatile.
     */
    public ClassRewriter store(RewriteStore store) {
        this.store = store;
        return this;
    }

    public RewriteResult rewrite(byte[] bytes) {
        return rewrite(bytes, false);
    }

    /**
     * Rewrites a class; with {@code leaveOversizedMethods}, a method that would outgrow the JVM's
     * 64 KiB code limit once fenced is left as compiled (listed in the result and the marker)
     * instead of failing the whole class.
     */
    public RewriteResult rewrite(byte[] bytes, boolean leaveOversizedMethods) {
        RewriteStore kept = store;
        if (kept == null || plainInJvm != null) return rewriteNow(bytes, leaveOversizedMethods);
        String kind = (privileged ? "boot" : "app") + (linkPlainFields ? "" : "-unlinked") + (leaveOversizedMethods ? "-lenient" : "")
                + (fieldMode == FieldMode.VOLATILE ? "" : "-" + fieldMode.word())
                + (optimisations == Optimisations.ALL ? "" : "-optimise-" + optimisations.word());
        RewriteStore.Kept k;
        try {
            k = kept.find(kind, bytes);
        } catch (RuntimeException e) {
            k = null; // the store is a cache: whatever is wrong with it, the class is rewritten anew
        }
        if (k != null && keptStillHolds(k, bytes)) {
            defined.record(k.result().className(), bytes);
            kept.hits.incrementAndGet();
            return k.result();
        }
        Consulted consulted = Consulted.begin();
        RewriteResult r;
        try {
            r = rewriteNow(bytes, leaveOversizedMethods);
        } finally {
            consulted.end();
        }
        try {
            kept.put(kind, bytes, r, consulted.answers());
        } catch (RuntimeException e) {
            // not kept; the rewrite stands
        }
        return r;
    }

    /**
     * Whether a kept rewrite is what rewriting the bytes now would give: whether every question it
     * asked about other classes gets the same answer now.
     */
    private boolean keptStillHolds(RewriteStore.Kept k, byte[] bytes) {
        List<Consulted.Answer> answers = k.consulted();
        for (Consulted.Answer a : answers) {
            if (a.question() == Consulted.Question.MADE_VOLATILE || a.question() == Consulted.Question.FENCED) {
                // relaxed code: it may ask about this class's own fields, which a class generated at
                // run time has no bytes for the source to find; a new rewrite would know them from here
                try {
                    factsCache.putIfAbsent(k.result().className(), trusted(ClassFacts.read(bytes), bytes));
                } catch (RuntimeException e) {
                    return false;
                }
                break;
            }
        }
        for (Consulted.Answer a : answers) {
            // fences an access turns out not to need cost time, not order: a kept rewrite may keep them
            if (a.question() == Consulted.Question.FENCED && a.value()) continue;
            String s = a.subject();
            boolean now;
            switch (a.question()) {
                case PACKAGE_RELAXED:
                    now = packageAnnotated(s);
                    break;
                case LEAK_FREE:
                    now = leaks.leakFree(s);
                    break;
                case MADE_VOLATILE:
                case FENCED:
                case DECLARED_BY_PROGRAM: {
                    int i = s.indexOf(';');
                    int j = s.indexOf(';', i + 1);
                    if (i < 0 || j < 0) return false;
                    String owner = s.substring(0, i), field = s.substring(i + 1, j), desc = s.substring(j + 1);
                    now = a.question() == Consulted.Question.FENCED ? fenced(owner, field, desc)
                            : a.question() == Consulted.Question.DECLARED_BY_PROGRAM ? declaredByProgram(owner, field, desc)
                            : madeVolatile(owner, field, desc);
                    break;
                }
                default:
                    return false;
            }
            if (now != a.value()) return false;
        }
        return true;
    }

    private RewriteResult rewriteNow(byte[] bytes, boolean leaveOversizedMethods) {
        ClassReader reader;
        String name;
        try {
            reader = new ClassReader(bytes);
            name = reader.getClassName();
        } catch (RuntimeException e) {
            // a truncated or corrupt class file: ASM fails with index errors before any name is known
            throw new RewriteException("<unreadable class file>", "cannot parse " + bytes.length + " bytes: " + e, e);
        }
        defined.record(name, bytes);
        String exclusion = policy.exclusion(name, privileged);
        if (exclusion != null) return RewriteResult.excluded(name, exclusion);
        ClassFacts facts;
        try {
            facts = ClassFacts.read(reader);
        } catch (RuntimeException e) {
            throw new RewriteException(name, "unreadable class file: " + e, e);
        }
        // a marker the program wrote itself is dropped, and the class rewritten as any other
        boolean forged = facts.marker != null && !markerTrusted(name, bytes);
        if (facts.marker != null && !forged) return RewriteResult.already(name);
        facts.marker = null;
        // Relaxed code of this class may touch its own fields: classes generated at run time have
        // no bytes for the source to find, so remember these.
        factsCache.putIfAbsent(name, facts);
        if (facts.isModuleOrPackageInfo()) return RewriteResult.excluded(name, "module or package descriptor");
        Map<String, String> unfenced = new LinkedHashMap<>();
        try {
            if (fieldMode == FieldMode.SAFE_CONSTRUCTION) {
                List<String> relaxed = new ArrayList<>();
                ClassWriter writer = new ClassWriter(reader, 0);
                ClassVisitor rewriting = new SafeConstruction(writer, policy, facts, classRelaxed(facts), leaks, bytes, relaxed);
                if (forged) rewriting = new ForgedMarkerVisitor(rewriting);
                reader.accept(jdk ? JdkPatches.wrapForSafeConstruction(name, rewriting) : rewriting, 0);
                return new RewriteResult(name, RewriteResult.Status.REWRITTEN, writer.toByteArray(), null,
                        List.of(), List.of(), relaxed, unfenced);
            }
            Map<String, FieldDecision> fields = decideEach(facts, bytes);
            boolean classRelaxed = classRelaxed(facts);
            // sets: a class may declare tens of thousands of fields
            Set<String> flippedNames = new LinkedHashSet<>();
            Set<String> unfinalNames = new LinkedHashSet<>();
            for (ClassFacts.FieldFact f : facts.declaredFields) {
                FieldDecision d = fields.get(fieldKey(f.name(), f.desc()));
                if (d != FieldDecision.KEEP) flippedNames.add(f.name());
                if (d == FieldDecision.UNFINAL_VOLATILE) unfinalNames.add(f.name());
            }
            List<String> flipped = new ArrayList<>(flippedNames);
            List<String> unfinal = new ArrayList<>(unfinalNames);
            Optimisations optimise = optimisations;
            Set<String> allocating = optimise.localArrays() ? LocalArrays.allocatingMethods(reader) : Set.of();
            FieldMode mode = fieldMode;
            boolean fenced = mode.plainInJvm();
            boolean speculative = mode == FieldMode.SPECULATIVE;
            boolean ownerRoot = speculative && ownerRoot(facts);
            boolean constructors = fenced && optimise.constructors();
            // a this(...) call in a constructor leaks when another constructor of the class may
            boolean leakFree = constructors && leaks.constructorsLeakFree(bytes);
            while (true) {
                List<String> relaxed = new ArrayList<>();
                ClassWriter writer = new ClassWriter(reader, 0);
                ClassVisitor rewriting = new Rewriting(writer, facts, fields, classRelaxed, relaxed, flipped, unfinal,
                        unfenced.keySet(), allocating, fenced, constructors, leakFree, speculative, ownerRoot);
                if (forged) rewriting = new ForgedMarkerVisitor(rewriting);
                reader.accept(jdk ? JdkPatches.wrap(name, rewriting) : rewriting, 0);
                try {
                    return new RewriteResult(name, RewriteResult.Status.REWRITTEN, writer.toByteArray(), null,
                            flipped, unfinal, relaxed, unfenced);
                } catch (MethodTooLargeException e) {
                    String method = e.getMethodName() + e.getDescriptor();
                    // left as compiled the method fits, as it did before; a repeat means something else grew it
                    if (!leaveOversizedMethods || unfenced.containsKey(method)) throw e;
                    unfenced.put(method, "would exceed the JVM's 64 KiB code limit once fenced ("
                            + e.getCodeSize() + " bytes)");
                }
            }
        } catch (MethodTooLargeException e) {
            throw new RewriteException(name, "method " + e.getMethodName() + e.getDescriptor()
                    + " would exceed the JVM's 64 KiB code limit once fenced (" + e.getCodeSize() + " bytes)", e);
        } catch (ClassTooLargeException e) {
            throw new RewriteException(name, "the class has " + reader.getItemCount()
                    + " constant-pool entries, and the references vbd's fences and marker add pushed it to "
                    + e.getConstantPoolCount() + ", over the JVM's limit of 65535", e);
        } catch (RewriteException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new RewriteException(name, e.toString(), e);
        }
    }

    /**
     * The declaration changes for each field of a class, by name (of fields sharing a name, the
     * last declared; the rewrite itself decides each field by name and descriptor).
     */
    public Map<String, FieldDecision> decide(ClassFacts facts, byte[] bytes) {
        Map<String, FieldDecision> byName = new LinkedHashMap<>();
        Map<String, FieldDecision> each = decideEach(facts, bytes);
        for (ClassFacts.FieldFact f : facts.declaredFields) byName.put(f.name(), each.get(fieldKey(f.name(), f.desc())));
        return byName;
    }

    /** A class file may reuse a field name with another type: the JVM tells them apart by descriptor. */
    private static String fieldKey(String name, String desc) {
        return name + ' ' + desc;
    }

    /** The declaration change of each field, by {@link #fieldKey}. */
    private Map<String, FieldDecision> decideEach(ClassFacts facts, byte[] bytes) {
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

    private boolean classRelaxed(ClassFacts facts) {
        boolean packageRelaxed = packageAnnotated(facts.name);
        Consulted.note(Consulted.Question.PACKAGE_RELAXED, facts.name, packageRelaxed);
        return policy.classRelaxed(facts.name, facts.relaxedAnnotation, packageRelaxed);
    }

    private boolean packageAnnotated(String className) {
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

    /**
     * Does an access to this field need the fences of a volatile access: did vbd make it
     * sequentially consistent while leaving it plain in the JVM ({@link #fields})? Resolves
     * the field as the JVM does. A field of a class this rewriter cannot read counts as fenced:
     * it may be, and fences on an access that needs none only cost time. For the same reason a
     * kept rewrite is not asked again whether its fenced accesses still need fences.
     */
    /**
     * Whether an access to a field must carry the fences of a volatile access because vbd makes it
     * SC and the JVM sees it plain: a field of a class rewritten (or to be rewritten) with fenced
     * fields, the JDK's among them when the JDK was prepared so. Unknown classes count as fenced.
     */
    public boolean fencedField(String owner, String name, String descriptor) {
        return fencedNow(owner, name, descriptor);
    }

    private boolean fenced(String owner, String name, String descriptor) {
        boolean f = fencedNow(owner, name, descriptor);
        Consulted.note(Consulted.Question.FENCED, Consulted.field(owner, name, descriptor), f);
        return f;
    }

    private boolean fencedNow(String owner, String name, String descriptor) {
        String cls = owner;
        JdkFencedFields table = jdkFenced;
        for (int depth = 0; cls != null && depth < 64; depth++) {
            // the field is declared here or above, all of it the JDK's
            if (table != null && cls.startsWith("java/")) return table.fenced(name, descriptor);
            // a JDK class comes marked from the prepared JDK (volatile or fenced fields, as it was
            // prepared), or, while the JDK itself is prepared, unmarked, decided as any other
            ClassFacts f = facts(cls);
            if (f == null) return true;
            ClassFacts.FieldFact field = f.field(name, descriptor);
            if (field != null) {
                if (f.marker != null) return !field.isVolatile() && f.marker.flipped(name);
                if (policy.exclusion(cls, privileged) != null) return false;
                return decideEach(f, null).get(fieldKey(name, descriptor)) != FieldDecision.KEEP;
            }
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
    private boolean declaredByProgram(String owner, String name, String descriptor) {
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
    private boolean ownerRoot(ClassFacts facts) {
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

    private static final String[] JDK_PREFIXES = {"java/", "javax/", "jdk/", "sun/", "com/sun/"};

    private boolean madeVolatileNow(String owner, String name, String descriptor) {
        String cls = owner;
        for (int depth = 0; cls != null && depth < 64; depth++) {
            ClassFacts f = facts(cls);
            if (f == null) return false;
            ClassFacts.FieldFact field = f.field(name, descriptor);
            if (field != null) {
                // the marker lists names only; what vbd flipped is volatile in the rewritten class
                if (f.marker != null) return field.isVolatile() && f.marker.flipped(name);
                if (policy.exclusion(cls, privileged) != null) return false;
                return decideEach(f, null).get(fieldKey(name, descriptor)) != FieldDecision.KEEP;
            }
            cls = f.superName;
        }
        return false;
    }

    private final class Rewriting extends ClassVisitor {
        private final ClassFacts facts;
        private final Map<String, FieldDecision> fields;
        private final boolean classRelaxed;
        private final List<String> relaxed;
        private final List<String> flipped;
        private final List<String> unfinal;
        private final Set<String> unfenced;
        /** Methods that allocate arrays ({@link LocalArrays#allocatingMethods}). */
        private final Set<String> allocating;
        /** Whether fields stay plain in the JVM ({@link #fields}), fixed for this rewrite. */
        private final boolean fenced;
        /** Whether a constructor's accesses to its own object before it can have left stay plain. */
        private final boolean constructors;
        /** Whether no constructor of the class can leak {@code this}. */
        private final boolean leakFree;
        /** {@link FieldMode#SPECULATIVE}, and whether this class declares the owner field. */
        private final boolean speculative;
        private final boolean ownerRoot;
        /** Methods whose array element accesses alone are relaxed ({@link Policy#arraysRelaxed}). */
        private final List<String> relaxedArrays = new ArrayList<>();

        Rewriting(ClassVisitor next, ClassFacts facts, Map<String, FieldDecision> fields, boolean classRelaxed,
                  List<String> relaxed, List<String> flipped, List<String> unfinal, Set<String> unfenced,
                  Set<String> allocating, boolean fenced, boolean constructors, boolean leakFree, boolean speculative,
                  boolean ownerRoot) {
            super(Opcodes.ASM9, next);
            this.constructors = constructors;
            this.speculative = speculative;
            this.ownerRoot = ownerRoot;
            this.fenced = fenced;
            this.leakFree = leakFree;
            this.allocating = allocating;
            this.facts = facts;
            this.fields = fields;
            this.classRelaxed = classRelaxed;
            this.relaxed = relaxed;
            this.flipped = flipped;
            this.unfinal = unfinal;
            this.unfenced = unfenced;
        }

        /**
         * Whether accesses get the check of speculative fields: it needs {@code invokedynamic}
         * (class files of version 51 on), and its argument holds for x86-64 alone.
         */
        private boolean speculativeChecks() {
            return speculative && facts.version >= Opcodes.V1_7 && Conventions.INLINE_FENCES;
        }

        @Override
        public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
            FieldDecision d = fields.getOrDefault(fieldKey(name, descriptor), FieldDecision.KEEP);
            if (d == FieldDecision.VOLATILE) {
                if (!fenced) access |= Opcodes.ACC_VOLATILE;
            } else if (d == FieldDecision.UNFINAL_VOLATILE) {
                access = (access & ~Opcodes.ACC_FINAL) | (fenced ? 0 : Opcodes.ACC_VOLATILE);
            }
            return super.visitField(access, name, descriptor, signature, value);
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
            MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
            if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) return mv;
            // before every other change, and even in a method left as compiled: no code sees the object without its owner
            if (ownerRoot && name.equals("<init>")) mv = new OwnerInitVisitor(mv, facts.name);
            if (unfenced.contains(name + descriptor)) return mv;
            if (BulkOperations.isFencedBody(facts.name, name)) {
                // one bulk operation: fenced as a whole, its element accesses unordered among themselves
                relaxed.add(name + descriptor);
                return new FencedBodyVisitor(access, name, descriptor, signature, exceptions, mv);
            }
            boolean methodRelaxed = policy.methodRelaxed(facts.name, name, descriptor,
                    facts.relaxedMethods.contains(name + descriptor), classRelaxed);
            if (methodRelaxed) {
                relaxed.add(name + descriptor);
                if (fenced) return mv; // its field accesses are plain as they stand
                // invokedynamic needs class files of version 51 or later; older ones keep the volatile access
                return linkPlainFields && facts.version >= Opcodes.V1_7
                        ? new RelaxedFieldAccessVisitor(mv, ClassRewriter.this, name.equals("<init>")) : mv;
            }
            boolean arraysRelaxed = policy.arraysRelaxed(facts.name, name, descriptor);
            if (arraysRelaxed) relaxedArrays.add(name + descriptor);
            ArrayAccessVisitor arrays = new ArrayAccessVisitor(new BulkOperationVisitor(new WeakModeVisitor(mv)), arraysRelaxed);
            FieldOracle early = plainInJvm;
            FieldOracle oracle = !fenced ? early
                    : early == null ? ClassRewriter.this::fenced
                    : (o, n, d) -> early.madeVolatile(o, n, d) || fenced(o, n, d);
            FencedFieldVisitor fields = oracle == null ? null
                    : speculativeChecks() ? new SpeculativeFieldVisitor(arrays, oracle, ClassRewriter.this::declaredByProgram)
                    : new FencedFieldVisitor(arrays, oracle);
            MethodVisitor body = fields == null ? arrays : fields;
            boolean constructor = constructors && name.equals("<init>");
            boolean arraysToAnalyse = !arraysRelaxed && allocating.contains(name + descriptor);
            if (!arraysToAnalyse && !constructor) return body;
            // the whole method first: which accesses stay plain depends on what comes after them
            return new MethodNode(Opcodes.ASM9, access, name, descriptor, signature, exceptions) {
                @Override
                public void visitEnd() {
                    if (arraysToAnalyse) arrays.unshared(LocalArrays.unsharedAccesses(facts.name, this));
                    if (constructor) {
                        ConstructorLeaks.Unpublished u = leaks.unpublished(facts.name, this, leakFree);
                        fields.unpublished(u.accesses());
                        for (org.objectweb.asm.tree.AbstractInsnNode p : u.publishing()) {
                            instructions.insertBefore(p, FencingVisitor.releaseInsns());
                        }
                        if (!u.publishing().isEmpty()) maxStack++;
                    }
                    accept(body);
                }
            };
        }

        @Override
        public void visitEnd() {
            if (ownerRoot) {
                // private transient: neither serialization nor the default serialVersionUID sees it
                super.visitField(Opcodes.ACC_PRIVATE | Opcodes.ACC_TRANSIENT | Opcodes.ACC_SYNTHETIC,
                        Conventions.OWNER_FIELD, Conventions.OWNER_FIELD_DESC, null, null).visitEnd();
            }
            AnnotationVisitor av = super.visitAnnotation(Conventions.MARKER_DESC, false);
            av.visit("version", Conventions.REWRITE_VERSION);
            if (speculativeChecks()) av.visit("speculative", Boolean.TRUE);
            list(av, "flipped", flipped);
            list(av, "unfinal", unfinal);
            list(av, "relaxed", relaxed);
            if (!unfenced.isEmpty()) list(av, "unfenced", new ArrayList<>(unfenced));
            if (!relaxedArrays.isEmpty()) list(av, "relaxedArrays", relaxedArrays);
            av.visitEnd();
            super.visitEnd();
        }

        private void list(AnnotationVisitor av, String name, java.util.Collection<String> values) {
            AnnotationVisitor arr = av.visitArray(name);
            for (String v : values) arr.visit(null, v);
            arr.visitEnd();
        }
    }

    /** For tests: the fields of a class that the constructor analysis found unsafe to keep final. */
    public Set<String> unsafeFinals(byte[] bytes) {
        return Collections.unmodifiableSet(leaks.unsafeFinals(bytes));
    }
}
