package dev.vbd.core.rewrite;

import dev.vbd.core.analysis.ClassFacts;
import dev.vbd.core.analysis.ConstructorLeaks;
import dev.vbd.core.policy.Policy;
import org.objectweb.asm.ClassVisitor;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything the rewrite of one class with volatile, fenced or speculative fields decides before
 * it visits the class, from which {@link #chain} builds the visitors that carry it out.
 *
 * @param facts            the class, its marker dropped
 * @param fields           the declaration change of each declared field ({@link FieldDecisions#fieldKey})
 * @param classRelaxed     whether the class as a whole is relaxed
 * @param flipped          the names of the fields vbd makes sequentially consistent, for the marker
 * @param unfinal          of those, the ones that lose {@code final}
 * @param unfenced         methods left as compiled (a live view: a retry adds to it)
 * @param allocating       methods that allocate arrays ({@link dev.vbd.core.analysis.LocalArrays#allocatingMethods})
 * @param fenced           whether fields stay plain in the JVM, their accesses fenced ({@link FieldMode#plainInJvm})
 * @param constructors     whether a constructor's accesses to its own object before it can have left stay plain
 * @param leakFree         whether no constructor of the class can leak {@code this}
 * @param speculative      whether accesses get the checks of speculative fields ({@link SpeculativeFieldVisitor})
 * @param ownerRoot        whether this class declares the owner field of speculative fields
 * @param fencedAccess     which field accesses get the fences of a volatile access; null for none
 * @param rewriter         what the rewriter brings to each class
 */
record RewritePlan(ClassFacts facts, Map<String, FieldDecision> fields, boolean classRelaxed, List<String> flipped,
                   List<String> unfinal, Set<String> unfenced, Set<String> allocating, boolean fenced,
                   boolean constructors, boolean leakFree, boolean speculative, boolean ownerRoot,
                   FieldOracle fencedAccess, Tools rewriter) {

    /**
     * What every class a rewriter rewrites is rewritten with.
     *
     * @param linkPlainFields whether relaxed methods may link plain access to fields vbd made
     *                        volatile through {@code invokedynamic} (not in the JDK's own modules)
     */
    record Tools(Policy policy, FieldDecisions decisions, ConstructorLeaks leaks, boolean linkPlainFields) {}

    /**
     * The visitors that rewrite the class into {@code writer}, each doing one thing: field
     * modifiers, method bodies, the owner field, the marker. The relaxed methods they meet are
     * listed in {@code relaxed}.
     */
    ClassVisitor chain(ClassVisitor writer, RelaxedMethods relaxed) {
        ClassVisitor cv = new MarkerVisitor(writer, this, relaxed);
        if (ownerRoot) cv = new OwnerFieldVisitor(cv);
        cv = new MethodRewritingVisitor(cv, this, relaxed);
        return new FieldModifierVisitor(cv, fields, fenced);
    }
}
