package dev.vbd.core.rewrite;

import dev.vbd.core.Conventions;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Drops a marker that vbd did not write from a class it rewrites: the rewrite adds its own, and a
 * class must carry exactly one, or whoever reads the marker back could take the forged one.
 */
final class ForgedMarkerVisitor extends ClassVisitor {
    ForgedMarkerVisitor(ClassVisitor next) {
        super(Opcodes.ASM9, next);
    }

    @Override
    public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
        if (Conventions.MARKER_DESC.equals(descriptor)) return null;
        return super.visitAnnotation(descriptor, visible);
    }
}
