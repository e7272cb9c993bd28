package dev.vbd.core.rewrite;

import dev.vbd.core.Conventions;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Opcodes;

import java.util.ArrayList;
import java.util.Collection;

/**
 * Adds vbd's marker to a rewritten class: the rewrite's version, and what it made of the class's
 * fields and methods, which later rewrites of other classes and the verifier read back.
 */
final class MarkerVisitor extends ClassVisitor {
    private final RewritePlan plan;
    private final RelaxedMethods relaxed;

    MarkerVisitor(ClassVisitor next, RewritePlan plan, RelaxedMethods relaxed) {
        super(Opcodes.ASM9, next);
        this.plan = plan;
        this.relaxed = relaxed;
    }

    @Override
    public void visitEnd() {
        AnnotationVisitor av = super.visitAnnotation(Conventions.MARKER_DESC, false);
        av.visit("version", Conventions.REWRITE_VERSION);
        if (plan.speculative()) av.visit("speculative", Boolean.TRUE);
        list(av, "flipped", plan.flipped());
        list(av, "unfinal", plan.unfinal());
        list(av, "relaxed", relaxed.relaxed);
        if (!plan.unfenced().isEmpty()) list(av, "unfenced", new ArrayList<>(plan.unfenced()));
        if (!relaxed.relaxedArrays.isEmpty()) list(av, "relaxedArrays", relaxed.relaxedArrays);
        av.visitEnd();
        super.visitEnd();
    }

    private static void list(AnnotationVisitor av, String name, Collection<String> values) {
        AnnotationVisitor arr = av.visitArray(name);
        for (String v : values) arr.visit(null, v);
        arr.visitEnd();
    }
}
