package dev.vbd.core.verify;

import dev.vbd.core.Conventions;
import dev.vbd.core.analysis.ClassFacts;
import dev.vbd.core.analysis.ConstructorLeaks;
import dev.vbd.core.analysis.LocalArrays;
import dev.vbd.core.rewrite.BulkOperations;
import dev.vbd.core.rewrite.WeakModes;
import org.objectweb.asm.Opcodes;

import java.util.BitSet;

/**
 * Checks the heap accesses of one method against what the rewrite guarantees:
 * <ul>
 * <li>{@code xaload} immediately followed by {@code VbdRuntime.acquire()};</li>
 * <li>{@code xastore} immediately preceded by {@code release()} (and not a jump target) and
 *     followed by {@code full()};</li>
 * <li>except that an access to an array the method allocated and has not let go of yet needs
 *     neither ({@link LocalArrays}, which the rewriter asks too);</li>
 * <li>bulk operations ({@link BulkOperations}) with {@code full()} right before and after;</li>
 * <li>no weak access mode ({@link WeakModes}) left, except address-based ones that keep their
 *     call and carry the fences of a volatile access;</li>
 * <li>field instructions resolving to a volatile or final field, or to a relaxed one, or fenced
 *     like an array element access (fields whose modifiers the rewrite could not change);</li>
 * <li>no plain-field link (vbd's relaxed-code bootstrap) outside relaxed code;</li>
 * <li>in a class rewritten with speculative fields, a call that may reach {@code Object.clone}
 *     right after {@code dup; beforeClone} (the call's own full fence between them).</li>
 * </ul>
 * In a relaxed method the same sites are only counted.
 */
final class MethodCheck {
    private static final BitSet NONE = new BitSet();
    private final ClassCode code;
    private final ClassCode.Method method;
    private final String loader;
    private final ClassIndex index;
    private final Verifier.Scope scope;
    private final boolean relaxed;
    /** Whether the method's array element accesses alone are relaxed (an {@code arrays} rule). */
    private final boolean arraysRelaxed;
    /** Whether the class was rewritten with speculative fields ({@link ClassFacts.Marker#speculative}). */
    private final boolean speculative;
    private final VerifyReport report;
    private Instructions insns;
    /** {@link #unpublishedAccesses}, found when first needed. */
    private BitSet unpublished;
    /** Heap-access sites seen (checked or relaxed). */
    int sites;
    /** Sites whose ordering comes from the rewrite (fences, volatile fields), not from final semantics. */
    int orderedSites;

    MethodCheck(ClassCode code, ClassCode.Method method, String loader, ClassIndex index, Verifier.Scope scope,
                boolean relaxed, boolean arraysRelaxed, boolean speculative, VerifyReport report) {
        this.arraysRelaxed = arraysRelaxed;
        this.speculative = speculative;
        this.code = code;
        this.method = method;
        this.loader = loader;
        this.index = index;
        this.scope = scope;
        this.relaxed = relaxed;
        this.report = report;
    }

    void run() {
        insns = new Instructions(code, method);
        BitSet unshared = NONE;
        for (int i = 0; i < insns.size && !relaxed; i++) {
            if (LocalArrays.allocates(insns.opcodes[i])) {
                unshared = LocalArrays.unsharedAccesses(code.className(), code.tree(method));
                break;
            }
        }
        int fieldOrdinal = 0;
        int ordinal = 0;
        for (int i = 0; i < insns.size; i++) {
            int op = insns.opcodes[i];
            int pos = insns.positions[i];
            if (arraysRelaxed && (LocalArrays.isArrayLoad(op) || LocalArrays.isArrayStore(op))) {
                ordinal++;
                sites++;
                report.relaxedSites++;
            } else if (LocalArrays.isArrayLoad(op)) {
                // counted as not yet shared only when left plain: a rewrite without the proof fences it
                boolean unsharedHere = unshared.get(ordinal++);
                boolean fenced = acquireAfter(i);
                if (!fenced && unsharedHere) {
                    report.localArrayAccesses++;
                } else {
                    site(i, Finding.Kind.ARRAY_LOAD, fenced, () -> opName(op) + " not followed by an acquire fence");
                }
            } else if (LocalArrays.isArrayStore(op)) {
                boolean unsharedHere = unshared.get(ordinal++);
                boolean fenced = storeFenced(i);
                if (!fenced && unsharedHere) {
                    report.localArrayAccesses++;
                } else {
                    site(i, Finding.Kind.ARRAY_STORE, fenced,
                            () -> opName(op) + " not between VbdRuntime.release() and VbdRuntime.full()");
                }
            } else if (op >= Opcodes.GETSTATIC && op <= Opcodes.PUTFIELD) {
                String[] m = code.member(code.u2(pos + 1));
                // an inline fence, or the owner a constructor records: no access of the program's
                if (isOrderField(m) || m[1].equals(Conventions.OWNER_FIELD)) continue;
                field(i, op, m, m[0].equals(Conventions.RUNTIME) ? -1 : fieldOrdinal++);
            } else if (op >= Opcodes.INVOKEVIRTUAL && op <= Opcodes.INVOKEINTERFACE) {
                call(i);
            } else if (op == Opcodes.INVOKEDYNAMIC) {
                indy(i, code.u2(pos + 1));
            }
        }
    }

    /**
     * In a constructor, its accesses to its own object before the object can have left it
     * ({@link ConstructorLeaks#unpublished}), as positions among its field instructions: they
     * need no fences when a release fence stands right before every instruction at which the
     * object may leave after such a store. None when one lacks it: each is then checked as usual.
     */
    private BitSet unpublishedAccesses() {
        if (unpublished == null) unpublished = method.name().equals("<init>") ? findUnpublished() : NONE;
        return unpublished;
    }

    private BitSet findUnpublished() {
        ConstructorLeaks leaks = scope.leaks(loader);
        org.objectweb.asm.tree.MethodNode tree = code.tree(method);
        ConstructorLeaks.Unpublished u = leaks.unpublished(code.className(), tree, leaks.constructorsLeakFree(code.b));
        for (org.objectweb.asm.tree.AbstractInsnNode p : u.publishing()) {
            if (!releasedRightBefore(p)) return NONE;
        }
        return u.accesses();
    }

    /** Whether a release fence stands right before {@code p}, with no way into {@code p} in between. */
    static boolean releasedRightBefore(org.objectweb.asm.tree.AbstractInsnNode p) {
        org.objectweb.asm.tree.AbstractInsnNode prev = p.getPrevious();
        while (prev != null && prev.getOpcode() < 0 && !(prev instanceof org.objectweb.asm.tree.LabelNode)) prev = prev.getPrevious();
        return releasedBefore(prev);
    }

    /** Whether {@code insn}, the instruction before a publishing one with no way in between, is a release fence. */
    private static boolean releasedBefore(org.objectweb.asm.tree.AbstractInsnNode insn) {
        if (insn instanceof org.objectweb.asm.tree.MethodInsnNode call) {
            return call.getOpcode() == Opcodes.INVOKESTATIC && call.owner.equals(Conventions.RUNTIME)
                    && (call.name.equals(Conventions.RELEASE) || call.name.equals(Conventions.FULL));
        }
        if (!Conventions.INLINE_FENCES || insn == null || insn.getOpcode() != Opcodes.POP) return false;
        org.objectweb.asm.tree.AbstractInsnNode load = insn.getPrevious();
        while (load != null && load.getOpcode() < 0 && !(load instanceof org.objectweb.asm.tree.LabelNode)) load = load.getPrevious();
        return load instanceof org.objectweb.asm.tree.FieldInsnNode f && f.getOpcode() == Opcodes.GETSTATIC
                && isOrderField(new String[]{f.owner, f.name, f.desc});
    }

    /**
     * A bulk operation's body ({@link BulkOperations#isFencedBody}) must open with a full fence and
     * have one right before every return: callers reach it by paths vbd cannot fence.
     */
    void fencedBody() {
        if (insns == null) insns = new Instructions(code, method);
        boolean ok = insns.size > 0 && isFence(0, Conventions.FULL);
        for (int i = 1; ok && i < insns.size; i++) {
            int op = insns.opcodes[i];
            if (op >= Opcodes.IRETURN && op <= Opcodes.RETURN && !isFence(i - 1, Conventions.FULL)) ok = false;
        }
        sites++;
        if (ok) {
            report.scSites++;
        } else {
            report.findings.add(new Finding(code.className(), loader, method.key(), 0, Finding.Kind.BULK,
                    "bulk operation whose body lacks VbdRuntime.full() on entry or before a return"));
        }
    }

    private interface Detail { String get(); }

    private void site(int i, Finding.Kind kind, boolean sc, Detail detail) {
        sites++;
        orderedSites++;
        if (relaxed) {
            report.relaxedSites++;
        } else if (sc) {
            report.scSites++;
        } else {
            report.findings.add(new Finding(code.className(), loader, method.key(), insns.offsets[i], kind, detail.get()));
        }
    }

    /** A called method as the checks see it: a fence, a bulk operation, a weak mode, or none of these. */
    private record Call(String owner, String name, String desc, String fence, boolean bulk, Object weak) {}

    private Call callAt(int i) {
        int cp = code.u2(insns.positions[i] + 1);
        Call c = (Call) code.calls[cp];
        if (c == null) {
            String[] m = code.member(cp);
            String fence = null;
            for (String f : FENCES) {
                if (Verifier.isFence(m[0], m[1], m[2], f)) fence = f;
            }
            boolean bulk = fence == null && BulkOperations.isBulk(m[0], m[1], m[2]);
            Object weak = fence != null || bulk ? null : WeakModes.classify(m[0], m[1], m[2]);
            c = new Call(m[0], m[1], m[2], fence, bulk, weak);
            code.calls[cp] = c;
        }
        return c;
    }

    private static final String[] FENCES = {Conventions.ACQUIRE, Conventions.RELEASE, Conventions.FULL};

    private void call(int i) {
        Call c = callAt(i);
        if (c.fence() != null) return;
        String owner = c.owner(), name = c.name(), desc = c.desc();
        int op = insns.opcodes[i];
        if (speculative && (op == Opcodes.INVOKESPECIAL || op == Opcodes.INVOKEVIRTUAL) && name.equals("clone")
                && desc.equals("()Ljava/lang/Object;") && !owner.startsWith("[")) {
            int k = isFence(i - 1, Conventions.FULL) ? i - 2 : i - 1;
            boolean checked = k >= 1 && insns.opcodes[k - 1] == Opcodes.DUP
                    && isSpeculationCall(k, Conventions.BEFORE_CLONE, Conventions.BEFORE_CLONE_DESC) && noEntry(k, i);
            site(i, Finding.Kind.CLONE, checked, () -> owner.replace('/', '.') + ".clone() without VbdSpeculation.beforeClone"
                    + " on its receiver: the copy reads the fields of an object another thread may own");
        }
        if (c.bulk()) {
            site(i, Finding.Kind.BULK, isFence(i - 1, Conventions.FULL) && !insns.isEntry(i) && isFence(i + 1, Conventions.FULL),
                    () -> owner.replace('/', '.') + "." + name + desc + " without VbdRuntime.full() on both sides");
            return;
        }
        Object weak = c.weak();
        if (weak instanceof WeakModes.Upgrade u) {
            site(i, Finding.Kind.WEAK_MODE, false,
                    () -> "weak access " + owner.replace('/', '.') + "." + name + desc + " (its volatile mode is " + u.newName() + ")");
        } else if (weak instanceof WeakModes.Fence f) {
            boolean sc = f.kind() == WeakModes.Kind.LOAD ? acquireAfter(i) : storeFenced(i);
            site(i, Finding.Kind.WEAK_MODE, sc, () -> owner.replace('/', '.') + "." + name + desc
                    + (f.kind() == WeakModes.Kind.LOAD ? " not followed by an acquire fence"
                    : " not between VbdRuntime.release() and VbdRuntime.full()"));
        }
    }

    /** A field instruction, the {@code ordinal}-th of the method (-1: one of vbd's runtime). */
    private void field(int i, int op, String[] m, int ordinal) {
        String owner = m[0], name = m[1], desc = m[2];
        ClassIndex.Resolved r = index.resolveField(loader, owner, name, desc);
        if (r == null) {
            // the owner was never loaded (the access never ran) or lies outside what was given
            sites++;
            report.unresolvedFields++;
            report.unresolved.merge(owner.replace('/', '.'), 1, Integer::sum);
            return;
        }
        ClassFacts.FieldFact f = r.field();
        boolean unsafeFinal = f.isFinal() && !f.isVolatile() && !scope.keepsFinal(r.owner(), f);
        if (f.isVolatile() || (f.isFinal() && !unsafeFinal)) {
            site(i, Finding.Kind.FIELD, true, null);
            // a final field needs no ordering of its own: an intrinsic reading it loses nothing
            if (!f.isVolatile()) orderedSites--;
            return;
        }
        ClassFacts declaring = r.owner().facts();
        if (!relaxed && scope.policy().fieldRelaxed(declaring.name, name, f.relaxedAnnotation(),
                scope.classRelaxed(r.owner().loader(), declaring), f.stable() && jdkLoader(r.owner().loader()))) {
            sites++;
            report.relaxedSites++;
            return;
        }
        boolean read = op == Opcodes.GETFIELD || op == Opcodes.GETSTATIC;
        // the barriers HotSpot puts around a volatile access, as around an array element: the
        // field's own modifiers could not be changed (a class defined before the agent started)
        if (read ? acquireAfter(i) : storeFenced(i)) {
            site(i, Finding.Kind.FIELD, true, null);
            return;
        }
        boolean wide = desc.equals("J") || desc.equals("D");
        if (op == Opcodes.GETFIELD ? speculativeLoad(i, owner, wide) : op == Opcodes.PUTFIELD && speculativeStore(i, owner, wide)) {
            site(i, Finding.Kind.FIELD, true, null);
            report.speculativeAccesses++;
            return;
        }
        if (!relaxed && ordinal >= 0 && unpublishedAccesses().get(ordinal)) {
            sites++;
            report.unpublishedAccesses++;
            return;
        }
        site(i, Finding.Kind.FIELD, false, () -> (read ? "reads " : "writes ")
                + declaring.name.replace('/', '.') + "." + name + " (" + desc + "), "
                + (unsafeFinal ? "final but written where final semantics do not cover the write (outside its"
                        + " constructors or class initialiser, into another object, or after this may have leaked)"
                        + ", and neither volatile nor fenced"
                    : "neither volatile nor final nor fenced")
                + (declaring.marker == null && policyExcluded(declaring.name) ? "; its class is excluded from the rewrite" : ""));
    }

    /** HotSpot honours {@code @Stable} in the boot and platform loaders' classes alone (see Policy#fieldRelaxed). */
    static boolean jdkLoader(String loader) {
        return loader.equals("boot") || loader.equals("jdk") || loader.startsWith("platform@");
    }

    private boolean policyExcluded(String name) {
        return scope.policy().exclusion(name, jdkLoader(loader)) != null;
    }

    private void indy(int i, int cp) {
        String[] bsm = code.indyBootstrap(cp);
        if (bsm == null || !bsm[0].equals(Conventions.RUNTIME) || !bsm[1].equals(Conventions.PLAIN_FIELD_BSM)) return;
        String[] nt = code.indyNameAndType(cp);
        site(i, Finding.Kind.PLAIN_FIELD, false, () -> "plain access to field " + nt[0] + " " + nt[1] + " outside a relaxed method");
    }

    /**
     * A load of speculative fields: {@code dup; owned(o); swap; getfield; swap} (or
     * {@code dup2_x1; pop2} for a long or double) {@code ; afterLoad}, the check naming the
     * field's class, and no way in after the check.
     */
    private boolean speculativeLoad(int i, String owner, boolean wide) {
        if (i < 3 || insns.opcodes[i - 3] != Opcodes.DUP || !isOwnedCheck(i - 2, owner) || insns.opcodes[i - 1] != Opcodes.SWAP) {
            return false;
        }
        int[] after = wide ? new int[]{Opcodes.DUP2_X1, Opcodes.POP2} : new int[]{Opcodes.SWAP};
        int end = i + 1 + after.length;
        if (!matches(i + 1, after) || !isSpeculationCall(end, Conventions.AFTER_LOAD, Conventions.AFTER_DESC)) return false;
        return noEntry(i - 2, end);
    }

    /**
     * A store of speculative fields: {@code release}, the object copied under the operands
     * ({@code swap; dup_x1; swap}, or {@code dup2_x1; pop2; dup; dup2_x2; pop2} for a long or
     * double), {@code putfield; owned(o); afterStore}, the check naming the field's class, and no
     * way in after the release.
     */
    private boolean speculativeStore(int i, String owner, boolean wide) {
        int[] before = wide ? new int[]{Opcodes.DUP2_X1, Opcodes.POP2, Opcodes.DUP, Opcodes.DUP2_X2, Opcodes.POP2}
                : new int[]{Opcodes.SWAP, Opcodes.DUP_X1, Opcodes.SWAP};
        int start = i - before.length;
        if (start < 1 || !matches(start, before) || !isFence(start - 1, Conventions.RELEASE)) return false;
        if (!isOwnedCheck(i + 1, owner) || !isSpeculationCall(i + 2, Conventions.AFTER_STORE, Conventions.AFTER_DESC)) return false;
        return noEntry(start, i + 2);
    }

    private boolean matches(int at, int[] opcodes) {
        if (at < 0 || at + opcodes.length > insns.size) return false;
        for (int k = 0; k < opcodes.length; k++) if (insns.opcodes[at + k] != opcodes[k]) return false;
        return true;
    }

    private boolean noEntry(int from, int to) {
        for (int k = from; k <= to; k++) if (insns.isEntry(k)) return false;
        return true;
    }

    /** The check of speculative fields, for the hierarchy of {@code owner}. */
    private boolean isOwnedCheck(int i, String owner) {
        if (i < 0 || i >= insns.size || insns.opcodes[i] != Opcodes.INVOKEDYNAMIC) return false;
        int cp = code.u2(insns.positions[i] + 1);
        String[] bsm = code.indyBootstrap(cp);
        String[] nt = code.indyNameAndType(cp);
        return bsm != null && bsm[0].equals(Conventions.SPECULATION) && bsm[1].equals(Conventions.OWNED_BSM)
                && bsm[2].equals(Conventions.OWNED_BSM_DESC) && nt[1].equals(Conventions.OWNED_DESC)
                && owner.equals(code.indyClassArgument(cp));
    }

    private boolean isSpeculationCall(int i, String name, String desc) {
        if (i < 0 || i >= insns.size || insns.opcodes[i] != Opcodes.INVOKESTATIC) return false;
        String[] m = code.member(code.u2(insns.positions[i] + 1));
        return m[0].equals(Conventions.SPECULATION) && m[1].equals(name) && m[2].equals(desc);
    }

    /** Preceded by release() with no other way in, and followed by full(). */
    private boolean storeFenced(int i) {
        return isFence(i - 1, Conventions.RELEASE) && !insns.isEntry(i) && isFence(i + 1, Conventions.FULL);
    }

    private boolean acquireAfter(int i) {
        return isFence(i + 1, Conventions.ACQUIRE) || (isOrderLoad(i + 1) && !insns.isEntry(i + 2));
    }

    /** An inline acquire fence at {@code i}: the runtime's order field loaded, then dropped. */
    private boolean isOrderLoad(int i) {
        if (!Conventions.INLINE_FENCES || i < 0 || i + 1 >= insns.size) return false;
        if (insns.opcodes[i] != Opcodes.GETSTATIC || insns.opcodes[i + 1] != Opcodes.POP) return false;
        return isOrderField(code.member(code.u2(insns.positions[i] + 1)));
    }

    private static boolean isOrderField(String[] m) {
        return m[0].equals(Conventions.RUNTIME) && m[1].equals(Conventions.ORDER) && m[2].equals(Conventions.ORDER_DESC);
    }

    private boolean isFence(int i, String which) {
        if (i < 0 || i >= insns.size || insns.opcodes[i] != Opcodes.INVOKESTATIC) return false;
        return which.equals(callAt(i).fence());
    }

    private static final String[] ARRAY_OPS = {"iaload", "laload", "faload", "daload", "aaload", "baload", "caload", "saload"};
    private static final String[] STORE_OPS = {"iastore", "lastore", "fastore", "dastore", "aastore", "bastore", "castore", "sastore"};

    private static String opName(int op) {
        return LocalArrays.isArrayLoad(op) ? ARRAY_OPS[op - Opcodes.IALOAD] : STORE_OPS[op - Opcodes.IASTORE];
    }
}
