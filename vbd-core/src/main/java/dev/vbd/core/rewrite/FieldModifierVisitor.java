package dev.vbd.core.rewrite;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Opcodes;

import java.util.Map;

/**
 * Changes the declared modifiers of the fields vbd makes sequentially consistent: volatile, and
 * no longer {@code final} where a constructor may leak the object; with fields left plain in the
 * JVM ({@link FieldMode#plainInJvm}) only the latter.
 */
final class FieldModifierVisitor extends ClassVisitor {
    private final Map<String, FieldDecision> fields;
    private final boolean fenced;

    FieldModifierVisitor(ClassVisitor next, Map<String, FieldDecision> fields, boolean fenced) {
        super(Opcodes.ASM9, next);
        this.fields = fields;
        this.fenced = fenced;
    }

    @Override
    public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
        FieldDecision d = fields.getOrDefault(FieldDecisions.fieldKey(name, descriptor), FieldDecision.KEEP);
        if (d == FieldDecision.VOLATILE) {
            if (!fenced) access |= Opcodes.ACC_VOLATILE;
        } else if (d == FieldDecision.UNFINAL_VOLATILE) {
            access = (access & ~Opcodes.ACC_FINAL) | (fenced ? 0 : Opcodes.ACC_VOLATILE);
        }
        return super.visitField(access, name, descriptor, signature, value);
    }
}
