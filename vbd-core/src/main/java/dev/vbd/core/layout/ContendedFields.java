package dev.vbd.core.layout;

import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Opcodes;

import java.util.function.Function;

/**
 * Gives the fields a {@link Layout} names the JVM's {@code @Contended} annotation, which HotSpot
 * lays out with padding around the field (for a class outside the JDK, under
 * {@code -XX:-RestrictContended}). A field already annotated keeps its own group. A static field is
 * left as it is: the JVM does not pad static fields.
 */
public final class ContendedFields extends ClassVisitor {
    public static final String CONTENDED = "Ljdk/internal/vm/annotation/Contended;";

    private final Function<String, String> fields;

    /** {@code fields}: a field's group by its name ("" for a group of its own), or null to leave it. */
    public ContendedFields(ClassVisitor next, Function<String, String> fields) {
        super(Opcodes.ASM9, next);
        this.fields = fields;
    }

    /** The visitor that applies {@code layout} to the class {@code internalName}: {@code next} itself when it names none of its fields. */
    public static ClassVisitor wrap(Layout layout, String internalName, ClassVisitor next) {
        Function<String, String> fields = layout.contended(internalName);
        return fields == null ? next : new ContendedFields(next, fields);
    }

    @Override
    public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
        FieldVisitor fv = super.visitField(access, name, descriptor, signature, value);
        String group = fields.apply(name);
        if (group == null || fv == null || (access & Opcodes.ACC_STATIC) != 0) return fv;
        return new FieldVisitor(Opcodes.ASM9, fv) {
            private boolean annotated;

            @Override
            public AnnotationVisitor visitAnnotation(String desc, boolean visible) {
                if (desc.equals(CONTENDED) && visible) annotated = true;
                return super.visitAnnotation(desc, visible);
            }

            @Override
            public void visitEnd() {
                if (!annotated) {
                    AnnotationVisitor av = super.visitAnnotation(CONTENDED, true);
                    if (!group.isEmpty()) av.visit("value", group);
                    av.visitEnd();
                }
                super.visitEnd();
            }
        };
    }

}
