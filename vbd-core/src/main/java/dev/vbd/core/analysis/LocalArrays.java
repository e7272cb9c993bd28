package dev.vbd.core.analysis;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
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
import java.util.BitSet;
import java.util.List;

/**
 * Which array element accesses of a method touch only arrays that the method allocated and that
 * no other thread can have seen yet: such an access needs no fence, since another thread can only
 * reach the array after it left the method, and it leaves through an access that is itself
 * sequentially consistent (a field or array store, which the rewrite fences), through a call or
 * a return to code whose own stores are, or through a thread start, which orders everything
 * before it.
 *
 * <p>An array leaves ("escapes") when it is stored into a field or an array, passed to a method
 * (as receiver or argument, {@code invokedynamic} included), returned or thrown. Only
 * {@code System.arraycopy}, which keeps no reference to its arrays, is not an escape. Each
 * allocation instruction is one site; a value may stand for several sites, or for an array from
 * elsewhere ({@code unknown}: a parameter, a field, an element of another array). An access is
 * unshared when every site its array may come from is one of this method's and no path leads from
 * an escape of that site to the access; control flow counts exception edges, so a callee that
 * stored the array and then threw is covered. Two arrays of one site (a loop) are one to the
 * analysis: once either escapes, accesses reachable from there are shared.
 *
 * <p>The rewriter and the verifier both ask this class, about the original and the rewritten
 * code respectively; the rewrite adds only argument-less fence calls, which neither move an array
 * nor change which instructions reach which, so the two answers agree.
 */
public final class LocalArrays {
    private LocalArrays() {}

    /** {@code iaload} to {@code saload}. */
    public static boolean isArrayLoad(int opcode) {
        return opcode >= Opcodes.IALOAD && opcode <= Opcodes.SALOAD;
    }

    /** {@code iastore} to {@code sastore}. */
    public static boolean isArrayStore(int opcode) {
        return opcode >= Opcodes.IASTORE && opcode <= Opcodes.SASTORE;
    }

    /**
     * The methods of a class (name and descriptor) whose code allocates an array: only their
     * accesses can be unshared, so only they are worth analysing.
     */
    public static java.util.Set<String> allocatingMethods(org.objectweb.asm.ClassReader reader) {
        java.util.Set<String> found = new java.util.HashSet<>();
        reader.accept(new org.objectweb.asm.ClassVisitor(Opcodes.ASM9) {
            @Override
            public org.objectweb.asm.MethodVisitor visitMethod(int access, String name, String descriptor,
                                                               String signature, String[] exceptions) {
                String key = name + descriptor;
                return new org.objectweb.asm.MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitIntInsn(int opcode, int operand) {
                        if (opcode == Opcodes.NEWARRAY) found.add(key);
                    }

                    @Override
                    public void visitTypeInsn(int opcode, String type) {
                        if (opcode == Opcodes.ANEWARRAY) found.add(key);
                    }

                    @Override
                    public void visitMultiANewArrayInsn(String descriptor, int numDimensions) {
                        found.add(key);
                    }
                };
            }
        }, org.objectweb.asm.ClassReader.SKIP_DEBUG | org.objectweb.asm.ClassReader.SKIP_FRAMES);
        return found;
    }

    /** Whether an instruction allocates an array. */
    public static boolean allocates(int opcode) {
        return opcode == Opcodes.NEWARRAY || opcode == Opcodes.ANEWARRAY || opcode == Opcodes.MULTIANEWARRAY;
    }

    /**
     * The unshared accesses of {@code m}, as positions in the order of its array loads and
     * stores ({@code xaload}, {@code xastore}): bit k stands for the k-th. Empty when the code
     * cannot be analysed (every access then stays fenced).
     */
    public static BitSet unsharedAccesses(String owner, MethodNode m) {
        InsnList insns = m.instructions;
        int n = insns.size();
        BitSet result = new BitSet();
        if (n == 0) return result;
        ControlFlow flow = new ControlFlow(n);
        Analyzer<Sites> analyzer = flow.analyzer(new SiteInterpreter(insns));
        Frame<Sites>[] frames;
        try {
            frames = analyzer.analyze(owner, m);
        } catch (AnalyzerException | RuntimeException e) {
            return result;
        }

        // where each site escapes
        List<BitSet> escapesOf = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Frame<Sites> f = frames[i];
            if (f == null) continue;
            AbstractInsnNode insn = insns.get(i);
            int escaping = escapingOperands(insn);
            for (int k = 0; k < escaping; k++) {
                Sites v = f.getStack(f.getStackSize() - 1 - k);
                for (int s = v.sites.nextSetBit(0); s >= 0; s = v.sites.nextSetBit(s + 1)) {
                    while (escapesOf.size() <= s) escapesOf.add(null);
                    if (escapesOf.get(s) == null) escapesOf.set(s, new BitSet(n));
                    escapesOf.get(s).set(i);
                }
            }
        }
        // what runs after each site escaped
        List<BitSet> sharedFrom = new ArrayList<>(escapesOf.size());
        for (BitSet escapes : escapesOf) sharedFrom.add(escapes == null ? null : flow.reachableAfter(escapes));

        int ordinal = 0;
        for (int i = 0; i < n; i++) {
            int op = insns.get(i).getOpcode();
            boolean load = isArrayLoad(op);
            boolean store = isArrayStore(op);
            if (!load && !store) continue;
            Frame<Sites> f = frames[i];
            if (f != null) {
                Sites array = f.getStack(f.getStackSize() - (load ? 2 : 3));
                if (!array.unknown && !array.sites.isEmpty() && unsharedAt(array.sites, i, sharedFrom)) {
                    result.set(ordinal);
                }
            }
            ordinal++;
        }
        return result;
    }

    private static boolean unsharedAt(BitSet sites, int insn, List<BitSet> sharedFrom) {
        for (int s = sites.nextSetBit(0); s >= 0; s = sites.nextSetBit(s + 1)) {
            BitSet shared = s < sharedFrom.size() ? sharedFrom.get(s) : null;
            if (shared != null && shared.get(insn)) return false;
        }
        return true;
    }

    /** How many values on top of the stack {@code insn} lets leave the method. */
    private static int escapingOperands(AbstractInsnNode insn) {
        switch (insn.getOpcode()) {
            case Opcodes.PUTFIELD, Opcodes.PUTSTATIC, Opcodes.AASTORE, Opcodes.ARETURN, Opcodes.ATHROW:
                return 1;
            case Opcodes.INVOKEVIRTUAL, Opcodes.INVOKESPECIAL, Opcodes.INVOKESTATIC, Opcodes.INVOKEINTERFACE: {
                MethodInsnNode call = (MethodInsnNode) insn;
                if (call.owner.equals("java/lang/System") && call.name.equals("arraycopy")) return 0;
                int args = Type.getArgumentTypes(call.desc).length;
                return insn.getOpcode() == Opcodes.INVOKESTATIC ? args : args + 1;
            }
            case Opcodes.INVOKEDYNAMIC:
                return Type.getArgumentTypes(((org.objectweb.asm.tree.InvokeDynamicInsnNode) insn).desc).length;
            default:
                return 0;
        }
    }

    /** The arrays a value may be: allocation sites of this method (by instruction index), or unknown. */
    static final class Sites implements Value {
        final BasicValue basic;
        final BitSet sites;
        final boolean unknown;

        Sites(BasicValue basic, BitSet sites, boolean unknown) {
            this.basic = basic;
            this.sites = sites;
            this.unknown = unknown;
        }

        @Override
        public int getSize() { return basic.getSize(); }

        @Override
        public boolean equals(Object o) {
            return o instanceof Sites s && s.basic.equals(basic) && s.unknown == unknown && s.sites.equals(sites);
        }

        @Override
        public int hashCode() { return basic.hashCode() * 31 + sites.hashCode() + (unknown ? 1 : 0); }
    }

    /** Tracks allocation sites through locals and the stack; sizes and types come from {@link BasicInterpreter}. */
    private static final class SiteInterpreter extends Interpreter<Sites> {
        private static final BitSet NONE = new BitSet();
        private final BasicInterpreter basic = new BasicInterpreter();
        private final InsnList insns;

        SiteInterpreter(InsnList insns) {
            super(Opcodes.ASM9);
            this.insns = insns;
        }

        private static Sites unknown(BasicValue b) { return b == null ? null : new Sites(b, NONE, true); }

        /** A value that is no array at all (a number, {@code null}): it cannot carry an escape. */
        private static Sites none(BasicValue b) { return b == null ? null : new Sites(b, NONE, false); }

        private Sites site(BasicValue b, AbstractInsnNode insn) {
            BitSet s = new BitSet();
            s.set(insns.indexOf(insn));
            return new Sites(b, s, false);
        }

        @Override
        public Sites newValue(Type type) {
            return unknown(basic.newValue(type));
        }

        @Override
        public Sites newOperation(AbstractInsnNode insn) throws AnalyzerException {
            BasicValue b = basic.newOperation(insn);
            return b == BasicValue.REFERENCE_VALUE && insn.getOpcode() != Opcodes.ACONST_NULL
                    ? unknown(b) : none(b);
        }

        @Override
        public Sites copyOperation(AbstractInsnNode insn, Sites value) {
            return value;
        }

        @Override
        public Sites unaryOperation(AbstractInsnNode insn, Sites value) throws AnalyzerException {
            BasicValue b = basic.unaryOperation(insn, value.basic);
            return switch (insn.getOpcode()) {
                case Opcodes.NEWARRAY, Opcodes.ANEWARRAY -> site(b, insn);
                case Opcodes.CHECKCAST -> value;
                default -> b == BasicValue.REFERENCE_VALUE ? unknown(b) : none(b);
            };
        }

        @Override
        public Sites binaryOperation(AbstractInsnNode insn, Sites v1, Sites v2) throws AnalyzerException {
            BasicValue b = basic.binaryOperation(insn, v1.basic, v2.basic);
            return b == BasicValue.REFERENCE_VALUE ? unknown(b) : none(b);
        }

        @Override
        public Sites ternaryOperation(AbstractInsnNode insn, Sites v1, Sites v2, Sites v3) throws AnalyzerException {
            return none(basic.ternaryOperation(insn, v1.basic, v2.basic, v3.basic));
        }

        @Override
        public Sites naryOperation(AbstractInsnNode insn, List<? extends Sites> values) throws AnalyzerException {
            List<BasicValue> bs = new ArrayList<>(values.size());
            for (Sites v : values) bs.add(v.basic);
            BasicValue b = basic.naryOperation(insn, bs);
            if (insn.getOpcode() == Opcodes.MULTIANEWARRAY) return site(b, insn);
            return b == BasicValue.REFERENCE_VALUE ? unknown(b) : none(b);
        }

        @Override
        public void returnOperation(AbstractInsnNode insn, Sites value, Sites expected) {
        }

        @Override
        public Sites merge(Sites a, Sites b) {
            if (a.equals(b)) return a;
            BasicValue mb = basic.merge(a.basic, b.basic);
            BitSet s = (BitSet) a.sites.clone();
            s.or(b.sites);
            return new Sites(mb, s, a.unknown || b.unknown);
        }
    }
}
