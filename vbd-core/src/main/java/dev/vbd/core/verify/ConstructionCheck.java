package dev.vbd.core.verify;

import dev.vbd.core.analysis.ConstructorLeaks;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.Opcodes;

import java.util.List;
import java.util.Set;

/**
 * Checks one constructor for safe construction: a release fence right before every point at which
 * its object may become visible after one of its stores, found by the same analysis the rewrite
 * uses ({@link ConstructorLeaks#constructionFences}).
 */
final class ConstructionCheck {
    private ConstructionCheck() {}

    static void run(ClassCode code, ClassCode.Method m, String loader, ConstructorLeaks leaks, boolean leakFree,
                    Set<String> finals, boolean relaxed, VerifyReport report) {
        MethodNode tree = code.tree(m);
        List<AbstractInsnNode> points = leaks.constructionFences(code.className(), tree, leakFree, finals);
        if (relaxed) {
            if (!points.isEmpty()) report.relaxedConstructors++;
            return;
        }
        for (AbstractInsnNode p : points) {
            report.constructionPoints++;
            if (MethodCheck.releasedRightBefore(p)) continue;
            report.findings.add(new Finding(code.className(), loader, m.key(), tree.instructions.indexOf(p),
                    Finding.Kind.CONSTRUCTOR, (p.getOpcode() >= Opcodes.IRETURN && p.getOpcode() <= Opcodes.RETURN
                            ? "a return" : "a leak of this (opcode " + p.getOpcode() + ")")
                    + " after a store of the constructor, with no release fence before it"));
        }
    }
}
