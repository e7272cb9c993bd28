package dev.vbd.core.rewrite;

import dev.vbd.core.Conventions;
import dev.vbd.core.analysis.LocalArrays;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.MethodNode;

import java.util.HashSet;
import java.util.Set;

/**
 * Fences the array element accesses of code {@code java.lang.invoke} generates for itself: the
 * classes its {@code InvokerBytecodeGenerator} spins for lambda forms load and store elements
 * with the plain {@code xaload}/{@code xastore} for spreaders, collectors, array element getters
 * and setters, loops, table switches and its interpreter entry points. Each such access gets what
 * {@link ArrayAccessVisitor} gives any other, with the accesses to arrays that have not left
 * their method ({@link LocalArrays}) kept plain, as {@link ClassRewriter} does.
 *
 * <p>Nothing else changes: the fields these classes touch keep their own, already sequentially
 * consistent, modes, and the methods they call are rewritten where they are declared. A class
 * with no element access is not copied at all, since most lambda forms have none and every method
 * handle's first use waits for its form's class. A changed class carries vbd's marker, with
 * nothing flipped or relaxed, so that the verifier checks it as rewritten.
 */
public final class GeneratedArrayFences {
    private GeneratedArrayFences() {}

    /** The class file with its element accesses fenced, or null when it has none (define it as it is). */
    public static byte[] fence(byte[] bytes) {
        ClassReader reader = new ClassReader(bytes);
        Scan scan = new Scan();
        reader.accept(scan, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        if (!scan.accesses || scan.marked) return null;
        ClassWriter writer = new ClassWriter(reader, 0);
        reader.accept(new Fencing(writer, reader.getClassName(), scan.allocating), 0);
        return writer.toByteArray();
    }

    /** Whether a class has element accesses, which of its methods allocate arrays, and whether vbd marked it already. */
    private static final class Scan extends ClassVisitor {
        boolean accesses;
        boolean marked;
        final Set<String> allocating = new HashSet<>();

        Scan() {
            super(Opcodes.ASM9);
        }

        @Override
        public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
            if (descriptor.equals(Conventions.MARKER_DESC)) marked = true;
            return null;
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
            String key = name + descriptor;
            return new MethodVisitor(Opcodes.ASM9) {
                @Override
                public void visitInsn(int opcode) {
                    if (LocalArrays.isArrayLoad(opcode) || LocalArrays.isArrayStore(opcode)) accesses = true;
                }

                @Override
                public void visitIntInsn(int opcode, int operand) {
                    if (opcode == Opcodes.NEWARRAY) allocating.add(key);
                }

                @Override
                public void visitTypeInsn(int opcode, String type) {
                    if (opcode == Opcodes.ANEWARRAY) allocating.add(key);
                }

                @Override
                public void visitMultiANewArrayInsn(String descriptor, int numDimensions) {
                    allocating.add(key);
                }
            };
        }
    }

    private static final class Fencing extends ClassVisitor {
        private final String owner;
        private final Set<String> allocating;

        Fencing(ClassVisitor next, String owner, Set<String> allocating) {
            super(Opcodes.ASM9, next);
            this.owner = owner;
            this.allocating = allocating;
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
            MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
            if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) return mv;
            ArrayAccessVisitor arrays = new ArrayAccessVisitor(mv);
            if (!allocating.contains(name + descriptor)) return arrays;
            // the whole method first: which accesses stay plain depends on what comes after them
            return new MethodNode(Opcodes.ASM9, access, name, descriptor, signature, exceptions) {
                @Override
                public void visitEnd() {
                    arrays.unshared(LocalArrays.unsharedAccesses(owner, this));
                    accept(arrays);
                }
            };
        }

        @Override
        public void visitEnd() {
            AnnotationVisitor av = super.visitAnnotation(Conventions.MARKER_DESC, false);
            av.visit("version", Conventions.REWRITE_VERSION);
            av.visitEnd();
            super.visitEnd();
        }
    }
}
