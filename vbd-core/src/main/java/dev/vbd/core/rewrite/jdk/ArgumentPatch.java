package dev.vbd.core.rewrite.jdk;

import dev.vbd.core.Conventions;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A JDK method whose first argument is shown to a static method of vbd's runtime on entry, and,
 * where that method returns one, replaced by what it returns. Each patch of this shape is one of the
 * factories below.
 */
final class ArgumentPatch extends EntryPatch {
    static final String REFLECTION = "jdk/internal/reflect/Reflection";
    static final String REFLECTION_FACTORY = "jdk/internal/reflect/ReflectionFactory";

    private final String method;
    private final String descriptorPrefix;
    private final String helperOwner;
    private final String helper;
    private final String helperDescriptor;

    private ArgumentPatch(ClassVisitor next, String method, String descriptorPrefix, String helperOwner, String helper,
                          String helperDescriptor) {
        super(next);
        this.method = method;
        this.descriptorPrefix = descriptorPrefix;
        this.helperOwner = helperOwner;
        this.helper = helper;
        this.helperDescriptor = helperDescriptor;
    }

    /**
     * {@code Reflection.filterFields(Class, Field[])}, through which {@code Class.getDeclaredFields}
     * and every reflective field lookup pass, first drops the owner field that speculative fields
     * add: programs, and the serialization they drive, never see it.
     */
    static ClassVisitor ownerFieldFilter(ClassVisitor next) {
        return new ArgumentPatch(next, "filterFields", "(Ljava/lang/Class;[Ljava/lang/reflect/Field;)[Ljava/lang/reflect/Field;",
                Conventions.SPECULATION, "withoutOwner", "([Ljava/lang/reflect/Field;)[Ljava/lang/reflect/Field;");
    }

    /**
     * {@code ReflectionFactory.newMethodAccessor(Method, ...)} (JDK 17 takes the method alone, later
     * JDKs a caller-sensitivity flag too) builds its accessor for
     * {@code VbdRuntime.reflectiveTwin(method)}: reflection invokes native methods without any call
     * site vbd could fence.
     */
    static ClassVisitor reflectionTwin(ClassVisitor next) {
        return new ArgumentPatch(next, "newMethodAccessor", "(Ljava/lang/reflect/Method;",
                Conventions.RUNTIME, "reflectiveTwin", "(Ljava/lang/reflect/Method;)Ljava/lang/reflect/Method;");
    }

    /**
     * {@code ReflectionFactory.newFieldAccessor(Field, boolean)} first shows its field to
     * {@code VbdRuntime.reflectiveField}: a field whose class the JVM defined before vbd's agent stays
     * plain in the JVM, and a reflective accessor to it is recorded for the verifier.
     */
    static ClassVisitor reflectiveField(ClassVisitor next) {
        return new ArgumentPatch(next, "newFieldAccessor", "(Ljava/lang/reflect/Field;",
                Conventions.RUNTIME, "reflectiveField", "(Ljava/lang/reflect/Field;)V");
    }

    @Override
    boolean patches(String name, String descriptor) {
        return name.equals(method) && descriptor.startsWith(descriptorPrefix);
    }

    @Override
    void emit(MethodVisitor mv) {
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, helperOwner, helper, helperDescriptor, false);
        if (!helperDescriptor.endsWith(")V")) mv.visitVarInsn(Opcodes.ASTORE, 1);
    }

    @Override
    int stack() {
        return 1;
    }
}
