package dev.vbd.core.layout;

import dev.vbd.core.ClassBytesSource;
import dev.vbd.core.Conventions;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicInterpreter;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.Interpreter;
import org.objectweb.asm.tree.analysis.Value;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Spreads the elements of an array that a field holds, by a layout's {@code stride} rule: element
 * {@code i} lives at index {@code (i + 1) * stride} of an array that many times longer, and one stride
 * more, so that elements that threads write side by side (per-thread slots) lie on different cache
 * lines, and none on the line of the array's header, whose length every bounds check reads.
 *
 * <p>Sound only where every use of every array the field holds is rewritten alike, so the rule
 * applies only where that is proven, for the whole nest of the field's class (the only classes
 * that can name a private field): the field is private, holds a one-dimensional array, and its class
 * is not serializable; every value stored into it is an array allocated for it (used for nothing
 * else), null, or the field's own value; and every value read from it, through locals and the stack,
 * is used only as the array of an element load or store, for its length, or compared with null or
 * another reference. No constant of the nest names the field (a method handle). What reflection or
 * {@code Unsafe} does to the field from elsewhere, no rewrite can see.
 *
 * <p>The rewrite: an allocation for the field asks for {@code (length + 1) * stride} elements; an
 * element's index becomes {@code (index + 1) * stride} (out of range stays out of range, see
 * {@code VbdRuntime.stridedIndex}); a length read goes back to the count of elements
 * ({@code VbdRuntime.stridedCount}). The accesses themselves are the same instructions, made SC by the
 * rest of the rewrite as any other.
 */
public final class StridedArrays {
    private static final String INDEX = "stridedIndex";
    private static final String LENGTH = "stridedLength";
    private static final String COUNT = "stridedCount";

    /** One rule's verdict: {@code refused} null for a rule that applies, else why not. */
    private record Verdict(String refused) {}

    private final Layout layout;
    private final Map<String, Verdict> verdicts = new ConcurrentHashMap<>();
    /** Each rule's class's nest host, read once: every class the program loads is asked about every rule. */
    private final Map<String, String> ownerHosts = new ConcurrentHashMap<>();
    private final Consumer<String> warnings;

    /** {@code warnings}: where a rule left out is said, once per rule. */
    public StridedArrays(Layout layout, Consumer<String> warnings) {
        this.layout = layout;
        this.warnings = warnings;
    }

    /**
     * The visitor that rewrites the uses, in class {@code internalName} (whose class file is
     * {@code bytes}), of the arrays that strided fields of its nest hold; {@code next} itself when
     * there are none. {@code source} finds the nest's other classes.
     */
    public ClassVisitor wrap(String internalName, byte[] bytes, ClassBytesSource source, ClassVisitor next) {
        if (layout.strides().isEmpty()) return next;
        String host = nestHost(new ClassReader(bytes), internalName);
        Map<String, Integer> fields = new HashMap<>();
        for (Layout.Stride rule : layout.strides()) {
            String ownerHost = ownerHosts.get(rule.owner());
            if (ownerHost == null) {
                byte[] ownerBytes = rule.owner().equals(internalName) ? bytes : source.find(rule.owner());
                if (ownerBytes == null) continue;
                ownerHost = nestHost(new ClassReader(ownerBytes), rule.owner());
                ownerHosts.put(rule.owner(), ownerHost);
            }
            if (!ownerHost.equals(host)) continue;
            Verdict v = verdicts.computeIfAbsent(rule.owner() + "#" + rule.field(), k -> judge(rule, host, internalName, bytes, source));
            if (v.refused() == null) fields.put(rule.owner() + "#" + rule.field(), rule.stride());
        }
        return fields.isEmpty() ? next : new Rewrite(next, fields);
    }

    private Verdict judge(Layout.Stride rule, String host, String internalName, byte[] bytes, ClassBytesSource source) {
        String refused = refusal(rule, host, internalName, bytes, source);
        if (refused != null) {
            warnings.accept("the layout's stride for " + rule.owner().replace('/', '.') + "#" + rule.field()
                    + " is left out: " + refused);
        }
        return new Verdict(refused);
    }

    private static String refusal(Layout.Stride rule, String host, String internalName, byte[] bytes, ClassBytesSource source) {
        ClassNode owner = node(rule.owner().equals(internalName) ? bytes : source.find(rule.owner()));
        FieldNode field = null;
        for (FieldNode f : owner.fields) {
            if (f.name.equals(rule.field())) field = f;
        }
        if (field == null) return "its class declares no such field";
        if ((field.access & Opcodes.ACC_PRIVATE) == 0) return "the field is not private, so classes outside its nest may use it";
        if (!field.desc.startsWith("[") || field.desc.startsWith("[[")) return "the field holds no one-dimensional array";
        if (owner.interfaces.contains("java/io/Serializable") || owner.interfaces.contains("java/io/Externalizable")) {
            return "its class is serializable, and serialization reads the field as it is";
        }
        List<String> nest = new ArrayList<>();
        nest.add(host);
        ClassNode hostNode = host.equals(rule.owner()) ? owner : node(host.equals(internalName) ? bytes : source.find(host));
        if (hostNode == null) return "its nest host " + host.replace('/', '.') + " cannot be read";
        if (hostNode.nestMembers != null) nest.addAll(hostNode.nestMembers);
        for (String member : nest) {
            ClassNode c = member.equals(rule.owner()) ? owner : member.equals(host) ? hostNode
                    : node(member.equals(internalName) ? bytes : source.find(member));
            if (c == null) return "its nestmate " + member.replace('/', '.') + " cannot be read";
            for (MethodNode m : c.methods) {
                if (m.instructions.size() == 0) continue;
                String why = new Uses(rule.owner(), rule.field(), c.name, m).problem();
                if (why != null) return why;
            }
        }
        return null;
    }

    private static ClassNode node(byte[] bytes) {
        if (bytes == null) return null;
        ClassNode n = new ClassNode();
        new ClassReader(bytes).accept(n, ClassReader.SKIP_FRAMES);
        return n;
    }

    private static String nestHost(ClassReader reader, String internalName) {
        ClassNode n = new ClassNode();
        reader.accept(n, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return n.nestHostClass != null ? n.nestHostClass : internalName;
    }

    /** A value on the stack or in a local: the basic value, and the instructions it may come from (copies kept through). */
    static final class Origins implements Value {
        final BasicValue basic;
        final Set<AbstractInsnNode> from;

        Origins(BasicValue basic, Set<AbstractInsnNode> from) {
            this.basic = basic;
            this.from = from;
        }

        @Override
        public int getSize() {
            return basic == null ? 1 : basic.getSize();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Origins other && java.util.Objects.equals(basic, other.basic) && from.equals(other.from);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hashCode(basic) * 31 + from.hashCode();
        }
    }

    /** Where values come from: a copy (a load or store of a local, a dup) keeps its origins; anything else starts anew. */
    static final class OriginInterpreter extends Interpreter<Origins> {
        private final BasicInterpreter basic = new BasicInterpreter();

        OriginInterpreter() {
            super(Opcodes.ASM9);
        }

        private static Origins of(BasicValue b, AbstractInsnNode insn) {
            return b == null ? null : new Origins(b, Set.of(insn));
        }

        @Override
        public Origins newValue(Type type) {
            BasicValue b = basic.newValue(type);
            return b == null ? null : new Origins(b, Set.of());
        }

        @Override
        public Origins newOperation(AbstractInsnNode insn) throws AnalyzerException {
            return of(basic.newOperation(insn), insn);
        }

        @Override
        public Origins copyOperation(AbstractInsnNode insn, Origins value) throws AnalyzerException {
            return new Origins(basic.copyOperation(insn, value.basic), value.from);
        }

        @Override
        public Origins unaryOperation(AbstractInsnNode insn, Origins value) throws AnalyzerException {
            return of(basic.unaryOperation(insn, value.basic), insn);
        }

        @Override
        public Origins binaryOperation(AbstractInsnNode insn, Origins v1, Origins v2) throws AnalyzerException {
            return of(basic.binaryOperation(insn, v1.basic, v2.basic), insn);
        }

        @Override
        public Origins ternaryOperation(AbstractInsnNode insn, Origins v1, Origins v2, Origins v3) throws AnalyzerException {
            return of(basic.ternaryOperation(insn, v1.basic, v2.basic, v3.basic), insn);
        }

        @Override
        public Origins naryOperation(AbstractInsnNode insn, List<? extends Origins> values) throws AnalyzerException {
            List<BasicValue> b = new ArrayList<>();
            for (Origins v : values) b.add(v.basic);
            return of(basic.naryOperation(insn, b), insn);
        }

        @Override
        public void returnOperation(AbstractInsnNode insn, Origins value, Origins expected) {
        }

        @Override
        public Origins merge(Origins a, Origins b) {
            BasicValue m = basic.merge(a.basic, b.basic);
            if (m.equals(a.basic) && a.from.containsAll(b.from)) return a;
            Set<AbstractInsnNode> from = new HashSet<>(a.from);
            from.addAll(b.from);
            return new Origins(m, from);
        }
    }

    /**
     * The uses, in one method, of the arrays one field holds: whether they are all ones the rewrite
     * covers ({@link #problem}), and the instructions to rewrite.
     */
    static final class Uses {
        private final String owner;
        private final String field;
        private final String where;
        private final MethodNode method;
        final List<AbstractInsnNode> loadsAndStores = new ArrayList<>();
        final List<AbstractInsnNode> lengths = new ArrayList<>();
        final List<AbstractInsnNode> allocations = new ArrayList<>();

        Uses(String owner, String field, String className, MethodNode method) {
            this.owner = owner;
            this.field = field;
            this.where = className.replace('/', '.') + "." + method.name;
            this.method = method;
        }

        private boolean isField(AbstractInsnNode insn) {
            return insn instanceof FieldInsnNode f && f.owner.equals(owner) && f.name.equals(field);
        }

        private boolean isRead(AbstractInsnNode insn) {
            return isField(insn) && (insn.getOpcode() == Opcodes.GETFIELD || insn.getOpcode() == Opcodes.GETSTATIC);
        }

        /** Null when every use is covered; else the first that is not, said for the user. */
        String problem() {
            InsnList code = method.instructions;
            boolean mentions = false;
            for (AbstractInsnNode insn : code) {
                if (isField(insn)) mentions = true;
                if (insn instanceof LdcInsnNode ldc && ldc.cst instanceof Handle h && h.getOwner().equals(owner) && h.getName().equals(field)) {
                    return "a method handle to it in " + where;
                }
                if (insn instanceof InvokeDynamicInsnNode indy) {
                    for (Object arg : indy.bsmArgs) {
                        if (arg instanceof Handle h && h.getOwner().equals(owner) && h.getName().equals(field)) {
                            return "a method handle to it in " + where;
                        }
                    }
                }
            }
            if (!mentions) return null;
            Frame<Origins>[] frames;
            try {
                frames = new Analyzer<>(new OriginInterpreter()).analyze(owner, method);
            } catch (AnalyzerException e) {
                return "the code of " + where + " cannot be analysed (" + e.getMessage() + ")";
            }
            // the allocations stored into the field, found first: their other uses are checked below
            Set<AbstractInsnNode> allocated = new HashSet<>();
            for (int i = 0; i < code.size(); i++) {
                AbstractInsnNode insn = code.get(i);
                Frame<Origins> f = frames[i];
                if (f == null || !isField(insn) || insn.getOpcode() == Opcodes.GETFIELD || insn.getOpcode() == Opcodes.GETSTATIC) continue;
                if (top(f, 0).from.isEmpty()) return "a value from elsewhere is stored into it in " + where + " (line " + line(insn) + ")";
                for (AbstractInsnNode src : top(f, 0).from) {
                    int op = src.getOpcode();
                    if (op == Opcodes.NEWARRAY || op == Opcodes.ANEWARRAY) {
                        allocated.add(src);
                    } else if (op != Opcodes.ACONST_NULL && !isRead(src)) {
                        return "a value from elsewhere is stored into it in " + where + " (line " + line(insn) + ")";
                    }
                }
            }
            for (int i = 0; i < code.size(); i++) {
                AbstractInsnNode insn = code.get(i);
                Frame<Origins> f = frames[i];
                if (f == null) continue;
                int op = insn.getOpcode();
                int popped = popped(insn);
                for (int depth = 0; depth < popped && depth < f.getStackSize(); depth++) {
                    Origins v = top(f, depth);
                    boolean strided = false;
                    boolean other = v.from.isEmpty();
                    for (AbstractInsnNode src : v.from) {
                        if (isRead(src) || allocated.contains(src)) {
                            strided = true;
                        } else {
                            other = true;
                        }
                    }
                    if (!strided) continue;
                    boolean fromAllocation = !java.util.Collections.disjoint(v.from, allocated);
                    String use = use(insn, op, depth, fromAllocation);
                    if (use == null) {
                        return "its array is used otherwise in " + where + " (line " + line(insn) + ", " + opcodeName(op) + ")";
                    }
                    if (other && !use.equals("compare")) {
                        return "its array and another reach one instruction in " + where + " (line " + line(insn) + ")";
                    }
                    switch (use) {
                        case "element" -> loadsAndStores.add(insn);
                        case "length" -> lengths.add(insn);
                        default -> { }
                    }
                }
                if ((op == Opcodes.NEWARRAY || op == Opcodes.ANEWARRAY) && allocated.contains(insn)) allocations.add(insn);
            }
            return null;
        }

        /** What a use of the field's array at this operand is: element, length, store (into the field), compare, or null for an escape. */
        private String use(AbstractInsnNode insn, int op, int depth, boolean fromAllocation) {
            if (fromAllocation) return isField(insn) && depth == 0 ? "store" : null;
            if (op >= Opcodes.IALOAD && op <= Opcodes.SALOAD && depth == 1) return "element";
            if (op >= Opcodes.IASTORE && op <= Opcodes.SASTORE && depth == 2) return "element";
            if (op == Opcodes.ARRAYLENGTH) return "length";
            if (isField(insn) && depth == 0 && insn.getOpcode() != Opcodes.GETFIELD) return "store";
            if (op == Opcodes.IFNULL || op == Opcodes.IFNONNULL || op == Opcodes.IF_ACMPEQ || op == Opcodes.IF_ACMPNE) return "compare";
            if (op == Opcodes.POP || op == Opcodes.POP2) return "compare";
            return null;
        }

        private static Origins top(Frame<Origins> f, int depth) {
            return f.getStack(f.getStackSize() - 1 - depth);
        }

        private static int line(AbstractInsnNode insn) {
            for (AbstractInsnNode i = insn; i != null; i = i.getPrevious()) {
                if (i instanceof org.objectweb.asm.tree.LineNumberNode l) return l.line;
            }
            return 0;
        }

        private static String opcodeName(int op) {
            if (op >= Opcodes.INVOKEVIRTUAL && op <= Opcodes.INVOKEDYNAMIC) return "passed to a method";
            if (op >= Opcodes.IRETURN && op <= Opcodes.RETURN) return "returned";
            return switch (op) {
                case Opcodes.AASTORE -> "stored into an array";
                case Opcodes.PUTFIELD, Opcodes.PUTSTATIC -> "stored into another field";
                case Opcodes.ATHROW -> "thrown";
                case Opcodes.CHECKCAST, Opcodes.INSTANCEOF -> "its type tested";
                case Opcodes.MONITORENTER, Opcodes.MONITOREXIT -> "locked";
                default -> "opcode " + op;
            };
        }
    }

    /**
     * How many stack values an instruction takes (copies and the stack's own shuffles take none: a
     * value they move is checked where it ends up).
     */
    static int popped(AbstractInsnNode insn) {
        int op = insn.getOpcode();
        if (op < 0) return 0;
        if (insn instanceof MethodInsnNode m) {
            return Type.getArgumentTypes(m.desc).length + (op == Opcodes.INVOKESTATIC ? 0 : 1);
        }
        if (insn instanceof InvokeDynamicInsnNode d) return Type.getArgumentTypes(d.desc).length;
        if (insn instanceof FieldInsnNode) {
            return switch (op) {
                case Opcodes.GETSTATIC -> 0;
                case Opcodes.PUTSTATIC, Opcodes.GETFIELD -> 1;
                default -> 2;
            };
        }
        if (insn instanceof org.objectweb.asm.tree.MultiANewArrayInsnNode m) return m.dims;
        return switch (op) {
            case Opcodes.ILOAD, Opcodes.LLOAD, Opcodes.FLOAD, Opcodes.DLOAD, Opcodes.ALOAD,
                    Opcodes.ISTORE, Opcodes.LSTORE, Opcodes.FSTORE, Opcodes.DSTORE, Opcodes.ASTORE,
                    Opcodes.DUP, Opcodes.DUP_X1, Opcodes.DUP_X2, Opcodes.DUP2, Opcodes.DUP2_X1, Opcodes.DUP2_X2, Opcodes.SWAP,
                    Opcodes.NOP, Opcodes.ACONST_NULL, Opcodes.BIPUSH, Opcodes.SIPUSH, Opcodes.LDC, Opcodes.NEW, Opcodes.GOTO,
                    Opcodes.JSR, Opcodes.RET, Opcodes.RETURN, Opcodes.IINC -> 0;
            case Opcodes.IALOAD, Opcodes.LALOAD, Opcodes.FALOAD, Opcodes.DALOAD, Opcodes.AALOAD, Opcodes.BALOAD, Opcodes.CALOAD,
                    Opcodes.SALOAD, Opcodes.IF_ICMPEQ, Opcodes.IF_ICMPNE, Opcodes.IF_ICMPLT, Opcodes.IF_ICMPGE, Opcodes.IF_ICMPGT,
                    Opcodes.IF_ICMPLE, Opcodes.IF_ACMPEQ, Opcodes.IF_ACMPNE -> 2;
            case Opcodes.IASTORE, Opcodes.LASTORE, Opcodes.FASTORE, Opcodes.DASTORE, Opcodes.AASTORE, Opcodes.BASTORE, Opcodes.CASTORE,
                    Opcodes.SASTORE -> 3;
            default -> {
                if (op >= Opcodes.ICONST_M1 && op <= Opcodes.DCONST_1) yield 0;
                if (op >= Opcodes.IADD && op <= Opcodes.DREM || op >= Opcodes.ISHL && op <= Opcodes.LXOR
                        || op >= Opcodes.LCMP && op <= Opcodes.DCMPG) yield 2;
                // POP, POP2, unary arithmetic, conversions, IFxx, switches, returns, ARRAYLENGTH, ATHROW,
                // CHECKCAST, INSTANCEOF, MONITORENTER, MONITOREXIT, NEWARRAY, ANEWARRAY
                yield 1;
            }
        };
    }

    /** Rewrites the uses of the strided fields' arrays in one class's methods. */
    private static final class Rewrite extends ClassVisitor {
        private final Map<String, Integer> fields;
        private String name;

        Rewrite(ClassVisitor next, Map<String, Integer> fields) {
            super(Opcodes.ASM9, next);
            this.fields = fields;
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
            this.name = name;
            super.visit(version, access, name, signature, superName, interfaces);
        }

        @Override
        public MethodVisitor visitMethod(int access, String methodName, String descriptor, String signature, String[] exceptions) {
            MethodVisitor next = super.visitMethod(access, methodName, descriptor, signature, exceptions);
            if (next == null) return null;
            return new MethodNode(Opcodes.ASM9, access, methodName, descriptor, signature, exceptions) {
                @Override
                public void visitEnd() {
                    boolean changed = false;
                    for (Map.Entry<String, Integer> e : fields.entrySet()) {
                        String[] of = e.getKey().split("#", 2);
                        Uses uses = new Uses(of[0], of[1], name, this);
                        if (instructions.size() == 0 || uses.problem() != null) continue;
                        changed |= rewrite(instructions, uses, e.getValue());
                    }
                    if (changed) maxStack += 2;
                    accept(next);
                }
            };
        }

        private static boolean rewrite(InsnList code, Uses uses, int stride) {
            for (AbstractInsnNode insn : uses.allocations) code.insertBefore(insn, scaled(stride, LENGTH));
            for (AbstractInsnNode insn : uses.loadsAndStores) {
                int op = insn.getOpcode();
                if (op <= Opcodes.SALOAD) {
                    code.insertBefore(insn, scaled(stride, INDEX));
                } else if (op == Opcodes.LASTORE || op == Opcodes.DASTORE) {
                    InsnList l = new InsnList();
                    l.add(new InsnNode(Opcodes.DUP2_X1));
                    l.add(new InsnNode(Opcodes.POP2));
                    l.add(scaled(stride, INDEX));
                    l.add(new InsnNode(Opcodes.DUP_X2));
                    l.add(new InsnNode(Opcodes.POP));
                    code.insertBefore(insn, l);
                } else {
                    InsnList l = new InsnList();
                    l.add(new InsnNode(Opcodes.SWAP));
                    l.add(scaled(stride, INDEX));
                    l.add(new InsnNode(Opcodes.SWAP));
                    code.insertBefore(insn, l);
                }
            }
            for (AbstractInsnNode insn : uses.lengths) code.insert(insn, scaled(stride, COUNT));
            return !uses.allocations.isEmpty() || !uses.loadsAndStores.isEmpty() || !uses.lengths.isEmpty();
        }

        private static InsnList scaled(int stride, String helper) {
            InsnList l = new InsnList();
            l.add(new LdcInsnNode(stride));
            l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, Conventions.RUNTIME, helper, "(II)I", false));
            return l;
        }
    }
}
