package dev.vbd.core.rewrite;

import dev.vbd.core.analysis.ClassFacts;
import dev.vbd.core.policy.Policy;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.util.ArrayList;
import java.util.List;

/**
 * The rewrite that is still possible for a class the JVM defined before the agent started:
 * retransformation may change method bodies but no modifiers, so the class keeps its fields as
 * declared. Its non-relaxed methods get the usual body rewrite (array, bulk and weak-mode fences)
 * plus the fences of a volatile access around each access to a field that should have been made
 * volatile ({@link FencedFieldVisitor}). No marker is added: the class is not what the marker
 * promises (its fields are not volatile), and retransformation may not change its attributes.
 */
public final class EarlyClassRewriter {
    private final Policy policy;

    public EarlyClassRewriter(Policy policy) {
        this.policy = policy;
    }

    /**
     * The fields of a class that the normal rewrite would have made volatile, each as
     * {@code name + ' ' + descriptor}: these are the ones that stay plain in an early class.
     */
    public static List<String> fieldsToFence(ClassRewriter rewriter, ClassFacts facts, byte[] bytes) {
        List<String> out = new ArrayList<>();
        var decisions = rewriter.decide(facts, bytes);
        for (ClassFacts.FieldFact f : facts.declaredFields) {
            FieldDecision d = decisions.get(f.name());
            if (d != null && d != FieldDecision.KEEP) out.add(f.name() + ' ' + f.desc());
        }
        return out;
    }

    /**
     * Rewrites the method bodies of {@code bytes} (the class as the JVM runs it); {@code facts}
     * come from its original class file where one can be found (reconstituted bytes lack
     * invisible annotations such as {@code @Relaxed}).
     */
    public byte[] rewriteBodies(byte[] bytes, ClassFacts facts, FieldOracle fence) {
        ClassReader reader = new ClassReader(bytes);
        boolean classRelaxed = policy.classRelaxed(facts.name, facts.relaxedAnnotation, false);
        ClassWriter writer = new ClassWriter(reader, 0);
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
                if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) return mv;
                if (policy.methodRelaxed(facts.name, name, descriptor,
                        facts.relaxedMethods.contains(name + descriptor), classRelaxed)) {
                    return mv;
                }
                return new FencedFieldVisitor(new ArrayAccessVisitor(new BulkOperationVisitor(new WeakModeVisitor(mv))), fence);
            }
        }, 0);
        return writer.toByteArray();
    }
}
