package dev.vbd.core.analysis;

import dev.vbd.core.ClassBytesSource;
import dev.vbd.core.Consulted;
import dev.vbd.core.Conventions;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicInterpreter;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which final instance fields may be read by another thread before their constructor stored
 * them: those whose store can execute after {@code this} escaped. {@code this} escapes when a
 * constructor passes it anywhere other than its own field accesses and the super/this
 * constructor call, and also when that super constructor itself may leak it (a virtual call
 * from a superclass constructor reaches subclass code). Unknown superclasses count as leaking.
 */
public final class ConstructorLeaks {
    private final ClassBytesSource source;
    /** Final answers only, shared by every thread that analyses. */
    private final Map<String, Boolean> superLeakFree = new ConcurrentHashMap<>();
    /**
     * The classes this thread is judging now: asked again, through a cycle or recursion, one counts
     * as leaking. Kept apart from the answers so that another thread never reads that assumption as
     * an answer. (An anonymous class, not a lambda: this runs while the JDK itself starts.)
     */
    private final ThreadLocal<Set<String>> judging = judging();
    /**
     * The same for the classes judged from the bytes they were defined from: a {@link Linker} asks
     * for those while the name they resolve from is being judged, and that is no cycle.
     */
    private final ThreadLocal<Set<String>> judgingBytes = judging();

    private static ThreadLocal<Set<String>> judging() {
        return new ThreadLocal<>() {
            @Override
            protected Set<String> initialValue() {
                return new HashSet<>();
            }
        };
    }
    /** How the JVM links a superclass name from the classes analysed here, where that is known ({@link #linkedBy}). */
    private volatile Linker linker;

    /**
     * The class a name resolves to as the JVM links it from the classes being analysed: a class
     * loader need not define the class its resources name (a child-first loader whose
     * {@code getResource} asks its parent first, or one whose resources lie), so a superclass is
     * judged by the class the defining loader resolves, with the bytes that class was defined from.
     */
    @FunctionalInterface
    public interface Linker {
        /** Whether no constructor of the class {@code internalName} resolves to can leak {@code this}. */
        boolean leakFree(String internalName);
    }

    public ConstructorLeaks(ClassBytesSource source) {
        this.source = source;
        superLeakFree.put("java/lang/Object", Boolean.TRUE);
        // Record() and Enum(String,int) only store their arguments.
        superLeakFree.put("java/lang/Record", Boolean.TRUE);
        superLeakFree.put("java/lang/Enum", Boolean.TRUE);
    }

    /**
     * The final fields of {@code classBytes}, instance and static, by name, that cannot keep
     * {@code final}: a final field keeps it only when every write to it is one that the JVM's
     * final-field semantics covers. For an instance field that is a store into {@code this} by a
     * constructor of its own class before {@code this} can have leaked, a {@code this(...)} call
     * counting as a leak when a constructor of the class may leak; for a static field, a store by
     * its class's initialiser. Any other write is possible in bytecode: a class file older than
     * version 53 may write its finals from any of its methods, and a constructor may write the
     * final field of another, already shared object of its class. A write through a subclass's
     * name resolves to the field too: it counts unless the subclass declares a field of its own by
     * that name (unknown classes count).
     */
    public Set<String> unsafeFinals(byte[] classBytes) {
        ClassNode cn = new ClassNode();
        new ClassReader(classBytes).accept(cn, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        Set<String> instanceFinals = new HashSet<>();
        Set<String> staticFinals = new HashSet<>();
        for (org.objectweb.asm.tree.FieldNode f : cn.fields) {
            if ((f.access & Opcodes.ACC_FINAL) == 0) continue;
            ((f.access & Opcodes.ACC_STATIC) == 0 ? instanceFinals : staticFinals).add(f.name + ' ' + f.desc);
        }
        Set<String> unsafe = new HashSet<>();
        if (instanceFinals.isEmpty() && staticFinals.isEmpty()) return unsafe;
        Boolean selfLeaks = null;
        for (MethodNode m : cn.methods) {
            boolean init = m.name.equals("<init>");
            boolean clinit = m.name.equals("<clinit>");
            boolean storesInConstructor = false;
            for (AbstractInsnNode insn : m.instructions) {
                int op = insn.getOpcode();
                if (op != Opcodes.PUTFIELD && op != Opcodes.PUTSTATIC) continue;
                FieldInsnNode fi = (FieldInsnNode) insn;
                if (op == Opcodes.PUTFIELD && writesOwn(cn.name, fi, instanceFinals)) {
                    if (init) storesInConstructor = true;
                    else unsafe.add(fi.name);
                } else if (op == Opcodes.PUTSTATIC && !clinit && writesOwn(cn.name, fi, staticFinals)) {
                    unsafe.add(fi.name);
                }
            }
            if (!storesInConstructor) continue;
            if (selfLeaks == null) selfLeaks = !constructorsLeakFree(cn);
            unsafe.addAll(analyse(cn, m, instanceFinals, selfLeaks).unsafeStores);
        }
        return unsafe;
    }

    /**
     * Whether a field instruction of class {@code owner}'s code writes one of {@code fields} (name
     * and descriptor) of {@code owner}: named through {@code owner}, or through a class that
     * inherits the field from it.
     */
    private boolean writesOwn(String owner, FieldInsnNode fi, Set<String> fields) {
        if (!fields.contains(fi.name + ' ' + fi.desc)) return false;
        String cls = fi.owner;
        for (int depth = 0; depth < 64; depth++) {
            if (cls == null || cls.equals(owner)) return true;
            byte[] b = source.find(cls);
            if (b == null) return true;
            ClassFacts f;
            try {
                f = ClassFacts.read(b);
            } catch (RuntimeException e) {
                return true;
            }
            if (f.field(fi.name, fi.desc) != null) return false;
            cls = f.superName;
        }
        return true;
    }

    /**
     * Judges superclasses by {@code linker} rather than by the bytes the source finds under their
     * names; set before the first analysis.
     */
    public ConstructorLeaks linkedBy(Linker linker) {
        this.linker = linker;
        return this;
    }

    /** True if no constructor of the class can leak {@code this}; unknown classes can. */
    public boolean leakFree(String internalName) {
        Boolean known = superLeakFree.get(internalName);
        if (known != null) return known;
        Set<String> mine = judging.get();
        if (!mine.add(internalName)) return false;
        try {
            Linker l = linker;
            boolean result;
            if (l != null) {
                result = l.leakFree(internalName);
            } else {
                byte[] bytes = source.find(internalName);
                result = bytes != null && constructorsLeakFree(bytes);
            }
            superLeakFree.put(internalName, result);
            return result;
        } finally {
            mine.remove(internalName);
        }
    }

    /**
     * True if no constructor of class {@code internalName}, defined from {@code bytes} by the
     * loader whose classes this analyses, can leak {@code this}: for a {@link Linker}, once it
     * knows which class a name resolves to and what it was defined from.
     */
    public boolean leakFree(String internalName, byte[] bytes) {
        Boolean known = superLeakFree.get(internalName);
        if (known != null) return known;
        Set<String> mine = judgingBytes.get();
        if (!mine.add(internalName)) return false;
        try {
            boolean result = constructorsLeakFree(bytes);
            superLeakFree.put(internalName, result);
            return result;
        } finally {
            mine.remove(internalName);
        }
    }

    /** True if no constructor of the class in {@code classBytes} can leak {@code this}. */
    public boolean constructorsLeakFree(byte[] classBytes) {
        try {
            ClassNode cn = new ClassNode();
            new ClassReader(classBytes).accept(cn, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
            return constructorsLeakFree(cn);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Whether no constructor of the class leaks {@code this}; its {@code this(...)} calls then leak nothing either. */
    private boolean constructorsLeakFree(ClassNode cn) {
        for (MethodNode m : cn.methods) {
            if (m.name.equals("<init>") && m.instructions.size() > 0 && analyse(cn, m, Set.of(), false).leaks) return false;
        }
        return true;
    }

    /**
     * What {@link #analyse} found in one constructor: whether it may leak {@code this}, and the
     * names of the final fields among those asked about that it writes where another thread may
     * see the write happen (after a possible leak, or into an object other than {@code this}).
     */
    private record CtorResult(boolean leaks, Set<String> unsafeStores) {}

    /**
     * What of a constructor runs while no other thread can have its object: {@code accesses}, the
     * positions, among the method's field instructions in order (those of vbd's runtime, its inline
     * fences, not counted), of the loads and stores on
     * {@code this} that no path from a possible leak of {@code this} reaches; {@code publishing},
     * the instructions at which the object may become visible to another thread once such a store
     * ran before it (each leak, and each return), before which a release fence orders those stores.
     * Both are empty when the code cannot be analysed.
     */
    public record Unpublished(BitSet accesses, List<AbstractInsnNode> publishing) {
        static final Unpublished NONE = new Unpublished(new BitSet(), List.of());
    }

    /**
     * The unpublished accesses of constructor {@code m} of class {@code owner} ({@link Unpublished}).
     * A {@code this(...)} call leaks when {@code selfLeakFree} is false, since the constructor it
     * calls may have leaked {@code this} before it returned.
     */
    public Unpublished unpublished(String owner, MethodNode m, boolean selfLeakFree) {
        InsnList insns = m.instructions;
        int n = insns.size();
        if (!m.name.equals("<init>") || n == 0) return Unpublished.NONE;
        ControlFlow flow = new ControlFlow(n);
        Frame<BasicValue>[] frames;
        try {
            frames = flow.analyzer(new ThisInterpreter()).analyze(owner, m);
        } catch (AnalyzerException | RuntimeException e) {
            return Unpublished.NONE;
        }
        BitSet leakAt = new BitSet(n);
        for (int i = 0; i < n; i++) {
            Frame<BasicValue> f = frames[i];
            if (f == null) continue;
            AbstractInsnNode insn = insns.get(i);
            if (leaks(owner, insn, f) || (!selfLeakFree && callsThis(owner, insn, f))) leakAt.set(i);
        }
        BitSet shared = leakAt.isEmpty() ? new BitSet(n) : flow.reachableAfter(leakAt);
        BitSet accesses = new BitSet();
        boolean anyStore = false;
        int ordinal = 0;
        for (int i = 0; i < n; i++) {
            AbstractInsnNode insn = insns.get(i);
            // the runtime's own field is an inline fence, not an access: rewritten code counts as the original
            if (!(insn instanceof FieldInsnNode) || isRuntimeField((FieldInsnNode) insn)) continue;
            int k = ordinal++;
            int op = insn.getOpcode();
            Frame<BasicValue> f = frames[i];
            if (f == null || shared.get(i) || leakAt.get(i)) continue;
            boolean onThis = (op == Opcodes.GETFIELD && surelyThis(f, 0))
                    || (op == Opcodes.PUTFIELD && surelyThis(f, 1));
            if (!onThis) continue;
            accesses.set(k);
            if (op == Opcodes.PUTFIELD) anyStore = true;
        }
        if (!anyStore) return new Unpublished(accesses, List.of());
        List<AbstractInsnNode> publishing = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (frames[i] == null) continue;
            int op = insns.get(i).getOpcode();
            if (leakAt.get(i) || (op >= Opcodes.IRETURN && op <= Opcodes.RETURN)) publishing.add(insns.get(i));
        }
        return new Unpublished(accesses, publishing);
    }

    /**
     * Where constructor {@code m} of class {@code owner} needs a release fence to give every store it
     * made the guarantee of a {@code final} field (safe construction): before each instruction at
     * which {@code this} may leave it, and before each return, where its caller may publish the
     * object with a plain store; each only where a path from a store of the constructor's own, or
     * from a call that may store, reaches it. Constructors it calls (its super constructor's, those of
     * the objects it makes) are no such call: their own fences order their stores. A return that
     * every path from the entry reaches only through a store of one of {@code finalFields} (name and
     * descriptor, declared by {@code owner}) into {@code this} needs none either: the JVM itself
     * fences a constructor that writes a final field at its exit, in every tier (the release barrier
     * that gives {@code final} its meaning), and that barrier orders every store before it, not
     * only the final field's. When the code cannot be analysed, before every return and every
     * instruction that could leak {@code this}.
     */
    public List<AbstractInsnNode> constructionFences(String owner, MethodNode m, boolean selfLeakFree, Set<String> finalFields) {
        InsnList insns = m.instructions;
        int n = insns.size();
        if (!m.name.equals("<init>") || n == 0) return List.of();
        BitSet stores = new BitSet(n);
        for (int i = 0; i < n; i++) if (storesOrCalls(insns.get(i))) stores.set(i);
        if (stores.isEmpty()) return List.of();
        ControlFlow flow = new ControlFlow(n);
        Frame<BasicValue>[] frames;
        try {
            frames = flow.analyzer(new ThisInterpreter()).analyze(owner, m);
        } catch (AnalyzerException | RuntimeException e) {
            frames = null;
        }
        BitSet afterStore = frames == null ? null : flow.reachableAfter(stores);
        BitSet finalStores = new BitSet(n);
        if (frames != null) {
            for (int i = 0; i < n; i++) {
                if (insns.get(i) instanceof FieldInsnNode fi && fi.getOpcode() == Opcodes.PUTFIELD && fi.owner.equals(owner)
                        && finalFields.contains(fi.name + ' ' + fi.desc) && frames[i] != null && surelyThis(frames[i], 1)) {
                    finalStores.set(i); // a store into this cannot throw: its only way on is its successor
                }
            }
        }
        // the returns some path reaches without a final field's store, which the JVM's own fence covers
        BitSet unfenced = finalStores.isEmpty() ? null : flow.reachableAvoiding(finalStores);
        List<AbstractInsnNode> points = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            AbstractInsnNode insn = insns.get(i);
            int op = insn.getOpcode();
            if (op < 0) continue;
            boolean returns = op >= Opcodes.IRETURN && op <= Opcodes.RETURN;
            boolean point;
            if (frames == null) {
                point = returns || mayLeak(op);
            } else {
                Frame<BasicValue> f = frames[i];
                if (f == null || !afterStore.get(i)) continue; // unreachable, or nothing stored yet
                point = (returns && (unfenced == null || unfenced.get(i))) || leaks(owner, insn, f)
                        || (!selfLeakFree && callsThis(owner, insn, f));
            }
            if (point) points.add(insn);
        }
        return points;
    }

    /** Whether an instruction stores to the heap, or calls what may, a constructor excepted. */
    private static boolean storesOrCalls(AbstractInsnNode insn) {
        int op = insn.getOpcode();
        if (op == Opcodes.INVOKESPECIAL && ((MethodInsnNode) insn).name.equals("<init>")) return false;
        return op == Opcodes.PUTFIELD || op == Opcodes.PUTSTATIC || (op >= Opcodes.IASTORE && op <= Opcodes.SASTORE)
                || (op >= Opcodes.INVOKEVIRTUAL && op <= Opcodes.INVOKEDYNAMIC);
    }

    /** Whether an instruction of this opcode can let a value on the stack escape. */
    private static boolean mayLeak(int op) {
        return op == Opcodes.PUTFIELD || op == Opcodes.PUTSTATIC || op == Opcodes.AASTORE || op == Opcodes.ATHROW
                || (op >= Opcodes.INVOKEVIRTUAL && op <= Opcodes.INVOKEDYNAMIC);
    }

    /**
     * Analyses constructor {@code m} of {@code cn} for leaks of {@code this} and for its writes of
     * {@code finals} (name and descriptor). {@code selfCallLeaks}: a {@code this(...)} call counts
     * as a leak, since the constructor it calls may leak {@code this} before it returns.
     */
    private CtorResult analyse(ClassNode cn, MethodNode m, Set<String> finals, boolean selfCallLeaks) {
        InsnList insns = m.instructions;
        int n = insns.size();
        ControlFlow flow = new ControlFlow(n);
        Analyzer<BasicValue> analyzer = flow.analyzer(new ThisInterpreter());
        Frame<BasicValue>[] frames;
        try {
            frames = analyzer.analyze(cn.name, m);
        } catch (AnalyzerException e) {
            // Cannot tell: every final field this constructor writes is treated as leaked.
            Set<String> all = new HashSet<>();
            for (AbstractInsnNode insn : insns) {
                if (insn.getOpcode() == Opcodes.PUTFIELD && writesOwn(cn.name, (FieldInsnNode) insn, finals)) {
                    all.add(((FieldInsnNode) insn).name);
                }
            }
            return new CtorResult(true, all);
        }
        BitSet leakAt = new BitSet(n);
        List<Integer> stores = new ArrayList<>();
        Set<String> unsafe = new HashSet<>();
        for (int i = 0; i < n; i++) {
            Frame<BasicValue> f = frames[i];
            if (f == null) continue;
            AbstractInsnNode insn = insns.get(i);
            if (leaks(cn.name, insn, f) || (selfCallLeaks && callsThis(cn.name, insn, f))) leakAt.set(i);
            if (insn.getOpcode() == Opcodes.PUTFIELD && writesOwn(cn.name, (FieldInsnNode) insn, finals)) {
                // into another object of the class, which may be shared already: no final semantics
                if (surelyThis(f, 1)) stores.add(i);
                else unsafe.add(((FieldInsnNode) insn).name);
            }
        }
        if (!leakAt.isEmpty() && !stores.isEmpty()) {
            // a leaking super() call may run subclass code before any store that follows it
            BitSet reach = flow.reachableAfter(leakAt);
            for (int i : stores) {
                if (reach.get(i)) unsafe.add(((FieldInsnNode) insns.get(i)).name);
            }
        }
        return new CtorResult(!leakAt.isEmpty(), unsafe);
    }

    /** Whether an instruction is a {@code this(...)} call: another constructor of the class on {@code this}. */
    private static boolean callsThis(String owner, AbstractInsnNode insn, Frame<BasicValue> f) {
        return insn.getOpcode() == Opcodes.INVOKESPECIAL && ((MethodInsnNode) insn).name.equals("<init>")
                && ((MethodInsnNode) insn).owner.equals(owner)
                && isThis(f, Type.getArgumentTypes(((MethodInsnNode) insn).desc).length);
    }

    /**
     * vbd's own fields, which rewritten code counts as the original did: the runtime's (an inline
     * fence) and the owner field of speculative fields, set on entry to a constructor.
     */
    public static boolean isRuntimeField(FieldInsnNode f) {
        return f.owner.equals(Conventions.RUNTIME) || f.name.equals(Conventions.OWNER_FIELD);
    }

    /** Does this instruction let {@code this} escape? */
    private boolean leaks(String owner, AbstractInsnNode insn, Frame<BasicValue> f) {
        int op = insn.getOpcode();
        if (op < 0) return false;
        switch (op) {
            case Opcodes.GETFIELD:
                return false;
            case Opcodes.PUTFIELD:
                return isThis(f, 0); // storing this into a field (its own included) publishes it
            case Opcodes.INVOKESPECIAL:
            case Opcodes.INVOKEVIRTUAL:
            case Opcodes.INVOKEINTERFACE:
            case Opcodes.INVOKESTATIC: {
                MethodInsnNode mi = (MethodInsnNode) insn;
                Type[] args = Type.getArgumentTypes(mi.desc);
                int argSlots = args.length;
                for (int a = 0; a < argSlots; a++) {
                    if (isThis(f, a)) return true;
                }
                if (op == Opcodes.INVOKESTATIC) return false;
                boolean receiverIsThis = isThis(f, argSlots);
                if (!receiverIsThis) return false;
                if (op == Opcodes.INVOKESPECIAL && mi.name.equals("<init>")) {
                    if (mi.owner.equals(owner)) return false; // this(...): that constructor is analysed on its own
                    boolean free = leakFree(mi.owner);
                    Consulted.note(Consulted.Question.LEAK_FREE, mi.owner, free);
                    return !free;
                }
                return true; // a method called on a partly built object can publish it
            }
            case Opcodes.INVOKEDYNAMIC: {
                // the check of speculative fields only reads the object's owner
                if (((org.objectweb.asm.tree.InvokeDynamicInsnNode) insn).bsm.getOwner().equals(Conventions.SPECULATION)) return false;
                int argSlots = Type.getArgumentTypes(((org.objectweb.asm.tree.InvokeDynamicInsnNode) insn).desc).length;
                for (int a = 0; a < argSlots; a++) if (isThis(f, a)) return true;
                return false;
            }
            case Opcodes.AASTORE:
            case Opcodes.PUTSTATIC:
            case Opcodes.ARETURN:
            case Opcodes.ATHROW:
                return isThis(f, 0);
            default:
                return false;
        }
    }

    /** May the stack slot {@code depth} values below the top be {@code this}? Values, not words. */
    private static boolean isThis(Frame<BasicValue> f, int depth) {
        int top = f.getStackSize() - 1 - depth;
        return top >= 0 && (f.getStack(top) == ThisInterpreter.THIS || f.getStack(top) == ThisInterpreter.MAYBE_THIS);
    }

    /** Is it {@code this} on every path, not another object that paths merge with it? */
    private static boolean surelyThis(Frame<BasicValue> f, int depth) {
        int top = f.getStackSize() - 1 - depth;
        return top >= 0 && f.getStack(top) == ThisInterpreter.THIS;
    }

    /** Tracks the receiver of a constructor through locals, the stack and merges. */
    static final class ThisInterpreter extends BasicInterpreter {
        static final BasicValue THIS = new BasicValue(Type.getObjectType("java/lang/Object")) {
            @Override public boolean equals(Object o) { return o == this; }
            @Override public int hashCode() { return System.identityHashCode(this); }
        };
        /** {@code this} on some paths, another reference on others. */
        static final BasicValue MAYBE_THIS = new BasicValue(Type.getObjectType("java/lang/Object")) {
            @Override public boolean equals(Object o) { return o == this; }
            @Override public int hashCode() { return System.identityHashCode(this); }
        };

        ThisInterpreter() {
            super(Opcodes.ASM9);
        }

        @Override
        public BasicValue newParameterValue(boolean isInstanceMethod, int local, Type type) {
            if (isInstanceMethod && local == 0) return THIS;
            return super.newParameterValue(isInstanceMethod, local, type);
        }

        @Override
        public BasicValue copyOperation(AbstractInsnNode insn, BasicValue value) throws AnalyzerException {
            return value == THIS || value == MAYBE_THIS ? value : super.copyOperation(insn, value);
        }

        @Override
        public BasicValue unaryOperation(AbstractInsnNode insn, BasicValue value) throws AnalyzerException {
            if ((value == THIS || value == MAYBE_THIS) && insn.getOpcode() == Opcodes.CHECKCAST) return value;
            return super.unaryOperation(insn, value);
        }

        @Override
        public BasicValue merge(BasicValue a, BasicValue b) {
            if (a == THIS && b == THIS) return THIS;
            // a reference that may be this is treated as this where it leaks: leaking it may leak this
            boolean thisA = a == THIS || a == MAYBE_THIS, thisB = b == THIS || b == MAYBE_THIS;
            if ((thisA && (thisB || b.isReference())) || (thisB && a.isReference())) return MAYBE_THIS;
            return super.merge(a, b);
        }
    }
}
