package dev.vbd.core.rewrite;

import dev.vbd.core.analysis.ClassFacts;
import dev.vbd.core.analysis.ConstructorLeaks;
import dev.vbd.core.analysis.LocalArrays;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Gives each method body of the class the method visitors its plan calls for: none for a method
 * left as compiled, the whole body fenced for a bulk operation, plain field links for relaxed
 * code, and otherwise fences for array elements, bulk operations, weak access modes and fenced
 * fields, leaving plain what the analyses prove no other thread can see.
 */
final class MethodRewritingVisitor extends ClassVisitor {
    private final RewritePlan plan;
    private final ClassFacts facts;
    private final RewritePlan.Tools rewriter;
    private final RelaxedMethods relaxed;

    MethodRewritingVisitor(ClassVisitor next, RewritePlan plan, RelaxedMethods relaxed) {
        super(Opcodes.ASM9, next);
        this.plan = plan;
        this.facts = plan.facts();
        this.rewriter = plan.rewriter();
        this.relaxed = relaxed;
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
        if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) return mv;
        // before every other change, and even in a method left as compiled: no code sees the object without its owner
        if (plan.ownerRoot() && name.equals("<init>")) mv = new OwnerInitVisitor(mv, facts.name);
        if (plan.unfenced().contains(name + descriptor)) return mv;
        if (BulkOperations.isFencedBody(facts.name, name)) {
            // one bulk operation: fenced as a whole, its element accesses unordered among themselves
            relaxed.relaxed.add(name + descriptor);
            return new FencedBodyVisitor(access, name, descriptor, signature, exceptions, mv);
        }
        boolean methodRelaxed = rewriter.policy().methodRelaxed(facts.name, name, descriptor,
                facts.relaxedMethods.contains(name + descriptor), plan.classRelaxed());
        if (methodRelaxed) {
            relaxed.relaxed.add(name + descriptor);
            return relaxedMethod(name, mv);
        }
        return fencedMethod(access, name, descriptor, signature, exceptions, mv);
    }

    /** A relaxed method: its accesses to fields vbd made volatile become plain where they can. */
    private MethodVisitor relaxedMethod(String name, MethodVisitor mv) {
        if (plan.fenced()) return mv; // its field accesses are plain as they stand
        // invokedynamic needs class files of version 51 or later; older ones keep the volatile access
        return rewriter.linkPlainFields() && facts.version >= Opcodes.V1_7
                ? new RelaxedFieldAccessVisitor(mv, rewriter.decisions(), name.equals("<init>")) : mv;
    }

    private MethodVisitor fencedMethod(int access, String name, String descriptor, String signature, String[] exceptions,
                                       MethodVisitor mv) {
        boolean arraysRelaxed = rewriter.policy().arraysRelaxed(facts.name, name, descriptor);
        if (arraysRelaxed) relaxed.relaxedArrays.add(name + descriptor);
        ArrayAccessVisitor arrays = new ArrayAccessVisitor(new BulkOperationVisitor(new WeakModeVisitor(mv)), arraysRelaxed);
        FieldOracle oracle = plan.fencedAccess();
        FencedFieldVisitor fields = oracle == null ? null
                : plan.speculative() ? new SpeculativeFieldVisitor(arrays, oracle, rewriter.decisions()::declaredByProgram)
                : new FencedFieldVisitor(arrays, oracle);
        MethodVisitor body = fields == null ? arrays : fields;
        boolean constructor = plan.constructors() && name.equals("<init>");
        boolean arraysToAnalyse = !arraysRelaxed && plan.allocating().contains(name + descriptor);
        if (!arraysToAnalyse && !constructor) return body;
        // the whole method first: which accesses stay plain depends on what comes after them
        return new MethodNode(Opcodes.ASM9, access, name, descriptor, signature, exceptions) {
            @Override
            public void visitEnd() {
                if (arraysToAnalyse) arrays.unshared(LocalArrays.unsharedAccesses(facts.name, this));
                if (constructor) {
                    ConstructorLeaks.Unpublished u = rewriter.leaks().unpublished(facts.name, this, plan.leakFree());
                    fields.unpublished(u.accesses());
                    for (AbstractInsnNode p : u.publishing()) {
                        instructions.insertBefore(p, FencingVisitor.releaseInsns());
                    }
                    if (!u.publishing().isEmpty()) maxStack++;
                }
                accept(body);
            }
        };
    }
}
