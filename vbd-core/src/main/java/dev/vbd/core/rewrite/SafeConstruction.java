package dev.vbd.core.rewrite;

import dev.vbd.core.Conventions;
import dev.vbd.core.analysis.ClassFacts;
import dev.vbd.core.analysis.ConstructorLeaks;
import dev.vbd.core.policy.Policy;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

import java.util.List;
import java.util.Set;

/**
 * The rewrite of {@link FieldMode#SAFE_CONSTRUCTION}: each constructor outside relaxed code gets a
 * release fence before every point at which its object may become visible to another thread
 * ({@link ConstructorLeaks#constructionFences}), so that a thread that reads a reference to the
 * object, however it was published, sees every store the constructor made before that point, as
 * it would a {@code final} field's. Nothing else in the class changes.
 *
 * <p>The fence orders the constructor's earlier stores before every later access of the thread, the
 * store that publishes the object among them; the reading thread needs no fence of its own, for
 * the same reason a {@code final} field's reader needs none on HotSpot: its loads through the
 * reference depend on the load of the reference, and neither the JIT nor the processors the JVM
 * runs on perform a dependent load before the load it depends on.
 */
final class SafeConstruction extends ClassVisitor {
    private final Policy policy;
    private final ClassFacts facts;
    private final boolean classRelaxed;
    private final ConstructorLeaks leaks;
    /** The class file, read again only for a constructor that calls {@code this(...)}: whether any constructor may leak. */
    private final byte[] bytes;
    private Boolean leakFree;
    private Set<String> finals;
    private final List<String> relaxed;

    SafeConstruction(ClassVisitor next, Policy policy, ClassFacts facts, boolean classRelaxed, ConstructorLeaks leaks,
                     byte[] bytes, List<String> relaxed) {
        super(Opcodes.ASM9, next);
        this.policy = policy;
        this.facts = facts;
        this.classRelaxed = classRelaxed;
        this.leaks = leaks;
        this.bytes = bytes;
        this.relaxed = relaxed;
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        MethodVisitor out = super.visitMethod(access, name, descriptor, signature, exceptions);
        if (!name.equals("<init>")) return out;
        if (policy.methodRelaxed(facts.name, name, descriptor, facts.relaxedMethods.contains(name + descriptor), classRelaxed)) {
            relaxed.add(name + descriptor);
            return out;
        }
        // the whole constructor first: where its object may leave depends on the flow of this
        return new MethodNode(Opcodes.ASM9, access, name, descriptor, signature, exceptions) {
            @Override
            public void visitEnd() {
                List<AbstractInsnNode> points = leaks.constructionFences(facts.name, this, !callsThis(this) || leakFree(), finals());
                for (AbstractInsnNode p : points) instructions.insertBefore(p, FencingVisitor.releaseInsns());
                if (!points.isEmpty()) maxStack++;
                accept(out);
            }
        };
    }

    /** Whether a constructor calls another constructor of its own class. */
    private boolean callsThis(MethodNode m) {
        for (AbstractInsnNode i = m.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i instanceof MethodInsnNode call && call.getOpcode() == Opcodes.INVOKESPECIAL && call.name.equals("<init>")
                    && call.owner.equals(facts.name)) {
                return true;
            }
        }
        return false;
    }

    /** The class's final instance fields, as {@code name + ' ' + descriptor}. */
    private Set<String> finals() {
        if (finals == null) finals = facts.finalInstanceFields();
        return finals;
    }

    private boolean leakFree() {
        if (leakFree == null) leakFree = leaks.constructorsLeakFree(bytes);
        return leakFree;
    }

    @Override
    public void visitEnd() {
        AnnotationVisitor av = super.visitAnnotation(Conventions.MARKER_DESC, false);
        av.visit("version", Conventions.REWRITE_VERSION);
        av.visit("construction", Boolean.TRUE);
        AnnotationVisitor arr = av.visitArray("relaxed");
        for (String m : relaxed) arr.visit(null, m);
        arr.visitEnd();
        av.visitEnd();
        super.visitEnd();
    }
}
