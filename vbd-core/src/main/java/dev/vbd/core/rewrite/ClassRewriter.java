package dev.vbd.core.rewrite;

import dev.vbd.core.ClassBytesSource;
import dev.vbd.core.Conventions;
import dev.vbd.core.analysis.ClassFacts;
import dev.vbd.core.analysis.ConstructorLeaks;
import dev.vbd.core.analysis.LocalArrays;
import dev.vbd.core.layout.ContendedFields;
import dev.vbd.core.layout.Layout;
import dev.vbd.core.layout.StridedArrays;
import dev.vbd.core.policy.Policy;
import dev.vbd.core.rewrite.jdk.JdkPatches;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassTooLargeException;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodTooLargeException;
import org.objectweb.asm.Opcodes;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Rewrites one class file for sequential consistency by default. Scope comes from the
 * {@link Policy}; what happens to fields is decided by {@link FieldDecisions}; each class gets a
 * {@link RewritePlan}, whose chain of visitors carries it out: field declarations
 * ({@link FieldModifierVisitor}), method bodies ({@link MethodRewritingVisitor}: array elements,
 * bulk operations, weak access modes, fenced fields, and in relaxed methods plain access to
 * fields vbd made volatile), and the marker ({@link MarkerVisitor}). Rewrites kept between runs
 * come from {@link KeptRewrites}. Thread-safe; caches what it learns about other classes.
 */
public final class ClassRewriter implements FieldOracle {
    private final Policy policy;
    private final ClassBytesSource source;
    private final ConstructorLeaks leaks;
    private final FieldDecisions decisions;
    private final RewritePlan.Tools tools;
    /** What each class this rewriter was asked to rewrite was defined from ({@link #definedLeakFree}). */
    private final DefinedClasses defined = new DefinedClasses();

    private final boolean linkPlainFields;
    /** Whether the classes come from the boot or platform class loader ({@link FieldDecisions}). */
    private final boolean privileged;
    private final boolean jdk;
    /** Fields that stay plain in the JVM though they should be volatile (see {@link #fenceFields}). */
    private volatile FieldOracle plainInJvm;
    /** Where rewrites are kept between runs, if anywhere (see {@link #store}). */
    private volatile KeptRewrites kept;
    /** How fields are made sequentially consistent (see {@link #fields}). */
    private volatile FieldMode fieldMode = FieldMode.VOLATILE;
    /** Which accesses stay plain because no other thread can see them (see {@link #optimise}). */
    private volatile Optimisations optimisations = Optimisations.ALL;
    /** Where the program's fields lie (see {@link #layout}). */
    private volatile Layout layout = Layout.NONE;
    private volatile StridedArrays strided = new StridedArrays(Layout.NONE, m -> { });

    /** This rewriter without its store. An inner class, not a lambda: it runs before anything warmed up. */
    private final Rewriter fresh = new Rewriter() {
        @Override
        public RewriteResult rewrite(byte[] bytes, boolean leaveOversizedMethods) {
            return rewriteNow(bytes, leaveOversizedMethods);
        }

        @Override
        public String kind(boolean leaveOversizedMethods) {
            return (privileged ? "boot" : "app") + (linkPlainFields ? "" : "-unlinked") + (leaveOversizedMethods ? "-lenient" : "")
                    + (fieldMode == FieldMode.VOLATILE ? "" : "-" + fieldMode.word())
                    + (optimisations == Optimisations.ALL ? "" : "-optimise-" + optimisations.word())
                    + (layout.isEmpty() ? "" : "-layout-" + layout.checksum());
        }
    };

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
        this.decisions = new FieldDecisions(policy, source, leaks, privileged);
        this.tools = new RewritePlan.Tools(policy, decisions, leaks, linkPlainFields);
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
     * The fields to lay out apart ({@link Layout}): a program's only, as a layout names the classes of
     * the program whose false sharing it repairs; set before the first rewrite.
     */
    public ClassRewriter layout(Layout layout) {
        this.layout = layout;
        // a stride left out is said on stderr, as vbd's other warnings in a program's run
        this.strided = new StridedArrays(layout, m -> System.err.println("vbd: " + m));
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
        decisions.jdkFencedFields(table);
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
        decisions.jdkClasses(jdk);
        return this;
    }

    /**
     * Keeps each rewrite in {@code store} and takes rewrites from it ({@link KeptRewrites}); the
     * store must belong to this policy and this version of vbd. Not with {@link #fenceFields},
     * whose answers depend on what the JVM loaded before.
     */
    public ClassRewriter store(RewriteStore store) {
        this.kept = store == null ? null : new KeptRewrites(fresh, store, decisions, leaks, defined);
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
        Rewriter k = kept;
        if (k == null || plainInJvm != null) return rewriteNow(bytes, leaveOversizedMethods);
        return k.rewrite(bytes, leaveOversizedMethods);
    }

    private RewriteResult rewriteNow(byte[] bytes, boolean leaveOversizedMethods) {
        ClassReader reader = parse(bytes);
        String name = reader.getClassName();
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
        boolean forged = facts.marker != null && !decisions.markerTrusted(name, bytes);
        if (facts.marker != null && !forged) return RewriteResult.already(name);
        facts.marker = null;
        // Relaxed code of this class may touch its own fields: classes generated at run time have
        // no bytes for the source to find, so remember these.
        decisions.remember(name, facts);
        if (facts.isModuleOrPackageInfo()) return RewriteResult.excluded(name, "module or package descriptor");
        try {
            FieldMode mode = fieldMode;
            if (mode == FieldMode.SAFE_CONSTRUCTION) return safeConstruction(reader, facts, bytes, forged);
            return rewriteFields(reader, facts, bytes, forged, mode, leaveOversizedMethods);
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

    private static ClassReader parse(byte[] bytes) {
        try {
            ClassReader reader = new ClassReader(bytes);
            reader.getClassName();
            return reader;
        } catch (RuntimeException e) {
            // a truncated or corrupt class file: ASM fails with index errors before any name is known
            throw new RewriteException("<unreadable class file>", "cannot parse " + bytes.length + " bytes: " + e, e);
        }
    }

    private RewriteResult safeConstruction(ClassReader reader, ClassFacts facts, byte[] bytes, boolean forged) {
        List<String> relaxed = new ArrayList<>();
        ClassWriter writer = new ClassWriter(reader, 0);
        ClassVisitor rewriting = new SafeConstruction(writer, policy, facts, decisions.classRelaxed(facts), leaks, bytes, relaxed);
        rewriting = strided.wrap(facts.name, bytes, source, ContendedFields.wrap(layout, facts.name, rewriting));
        if (forged) rewriting = new ForgedMarkerVisitor(rewriting);
        reader.accept(jdk ? JdkPatches.wrapForSafeConstruction(facts.name, rewriting) : rewriting, 0);
        return new RewriteResult(facts.name, RewriteResult.Status.REWRITTEN, writer.toByteArray(), null,
                List.of(), List.of(), relaxed, new LinkedHashMap<>());
    }

    /**
     * Rewrites a class with volatile, fenced or speculative fields; with
     * {@code leaveOversizedMethods}, again without each method that outgrew the code limit.
     */
    private RewriteResult rewriteFields(ClassReader reader, ClassFacts facts, byte[] bytes, boolean forged, FieldMode mode,
                                        boolean leaveOversizedMethods) {
        Map<String, String> unfenced = new LinkedHashMap<>();
        RewritePlan plan = plan(reader, facts, bytes, mode, unfenced.keySet());
        while (true) {
            RelaxedMethods relaxed = new RelaxedMethods();
            ClassWriter writer = new ClassWriter(reader, 0);
            ClassVisitor rewriting = strided.wrap(facts.name, bytes, source, ContendedFields.wrap(layout, facts.name, plan.chain(writer, relaxed)));
            if (forged) rewriting = new ForgedMarkerVisitor(rewriting);
            reader.accept(jdk ? JdkPatches.wrap(facts.name, rewriting) : rewriting, 0);
            try {
                return new RewriteResult(facts.name, RewriteResult.Status.REWRITTEN, writer.toByteArray(), null,
                        plan.flipped(), plan.unfinal(), relaxed.relaxed, unfenced);
            } catch (MethodTooLargeException e) {
                String method = e.getMethodName() + e.getDescriptor();
                // left as compiled the method fits, as it did before; a repeat means something else grew it
                if (!leaveOversizedMethods || unfenced.containsKey(method)) throw e;
                unfenced.put(method, "would exceed the JVM's 64 KiB code limit once fenced ("
                        + e.getCodeSize() + " bytes)");
            }
        }
    }

    /** What the rewrite of a class does, decided before it visits the class. */
    private RewritePlan plan(ClassReader reader, ClassFacts facts, byte[] bytes, FieldMode mode, Set<String> unfenced) {
        Map<String, FieldDecision> fields = decisions.decideEach(facts, bytes);
        boolean classRelaxed = decisions.classRelaxed(facts);
        // sets: a class may declare tens of thousands of fields
        Set<String> flippedNames = new LinkedHashSet<>();
        Set<String> unfinalNames = new LinkedHashSet<>();
        for (ClassFacts.FieldFact f : facts.declaredFields) {
            FieldDecision d = fields.get(FieldDecisions.fieldKey(f.name(), f.desc()));
            if (d != FieldDecision.KEEP) flippedNames.add(f.name());
            if (d == FieldDecision.UNFINAL_VOLATILE) unfinalNames.add(f.name());
        }
        Optimisations optimise = optimisations;
        Set<String> allocating = optimise.localArrays() ? LocalArrays.allocatingMethods(reader) : Set.of();
        boolean fenced = mode.plainInJvm();
        boolean speculative = mode == FieldMode.SPECULATIVE;
        boolean ownerRoot = speculative && decisions.ownerRoot(facts);
        boolean constructors = fenced && optimise.constructors();
        // a this(...) call in a constructor leaks when another constructor of the class may
        boolean leakFree = constructors && leaks.constructorsLeakFree(bytes);
        // the checks of speculative fields need invokedynamic (class files of version 51 on), and
        // their argument holds for x86-64 alone
        boolean checks = speculative && facts.version >= Opcodes.V1_7 && Conventions.INLINE_FENCES;
        return new RewritePlan(facts, fields, classRelaxed, new ArrayList<>(flippedNames), new ArrayList<>(unfinalNames),
                unfenced, allocating, fenced, constructors, leakFree, checks, ownerRoot, fencedAccess(fenced), tools);
    }

    /**
     * Which field accesses get the fences of a volatile access: those to fields of classes defined
     * before the agent started ({@link #fenceFields}), and with fields plain in the JVM those to
     * fields vbd fences ({@link FieldDecisions#fenced}).
     */
    private FieldOracle fencedAccess(boolean fenced) {
        FieldOracle early = plainInJvm;
        if (!fenced) return early;
        if (early == null) return decisions::fenced;
        return (o, n, d) -> early.madeVolatile(o, n, d) || decisions.fenced(o, n, d);
    }

    /**
     * The declaration changes for each field of a class, by name (of fields sharing a name, the
     * last declared; the rewrite itself decides each field by name and descriptor).
     */
    public Map<String, FieldDecision> decide(ClassFacts facts, byte[] bytes) {
        return decisions.decide(facts, bytes);
    }

    /**
     * Did vbd (and not the programmer) make this field volatile? Resolves the field as the JVM
     * does, through superclasses. Unknown classes answer false: the access then stays volatile,
     * which is correct, only not relaxed.
     */
    @Override
    public boolean madeVolatile(String owner, String name, String descriptor) {
        return decisions.madeVolatile(owner, name, descriptor);
    }

    /**
     * Whether an access to a field must carry the fences of a volatile access because vbd makes it
     * SC and the JVM sees it plain: a field of a class rewritten (or to be rewritten) with fenced
     * fields, the JDK's among them when the JDK was prepared so. Unknown classes count as fenced.
     */
    public boolean fencedField(String owner, String name, String descriptor) {
        return decisions.fencedNow(owner, name, descriptor);
    }

    /** For tests: the fields of a class that the constructor analysis found unsafe to keep final. */
    public Set<String> unsafeFinals(byte[] bytes) {
        return Collections.unmodifiableSet(leaks.unsafeFinals(bytes));
    }
}
