package dev.vbd.core.analysis;

import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.Interpreter;
import org.objectweb.asm.tree.analysis.Value;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/** A method's control-flow edges as ASM's {@link Analyzer} walks them, exception edges included. */
final class ControlFlow {
    private final List<List<Integer>> successors;

    ControlFlow(int instructions) {
        successors = new ArrayList<>(instructions);
        for (int i = 0; i < instructions; i++) successors.add(new ArrayList<>(2));
    }

    /** An analyzer that records into this graph every edge it follows. */
    <V extends Value> Analyzer<V> analyzer(Interpreter<V> interpreter) {
        return new Analyzer<>(interpreter) {
            @Override
            protected void newControlFlowEdge(int insn, int successor) {
                successors.get(insn).add(successor);
            }

            @Override
            protected boolean newControlFlowExceptionEdge(int insn, int successor) {
                successors.get(insn).add(successor);
                return true;
            }
        };
    }

    /** Instructions reachable from the method's entry by paths that pass none of {@code barriers}. */
    BitSet reachableAvoiding(BitSet barriers) {
        BitSet seen = new BitSet(successors.size());
        if (successors.isEmpty()) return seen;
        ArrayDeque<Integer> work = new ArrayDeque<>();
        seen.set(0);
        work.add(0);
        while (!work.isEmpty()) {
            int i = work.poll();
            if (barriers.get(i)) continue;
            for (int s : successors.get(i)) if (!seen.get(s)) { seen.set(s); work.add(s); }
        }
        return seen;
    }

    /** Instructions reachable from the successors of {@code from}. */
    BitSet reachableAfter(BitSet from) {
        BitSet seen = new BitSet(successors.size());
        ArrayDeque<Integer> work = new ArrayDeque<>();
        for (int i = from.nextSetBit(0); i >= 0; i = from.nextSetBit(i + 1)) {
            for (int s : successors.get(i)) if (!seen.get(s)) { seen.set(s); work.add(s); }
        }
        while (!work.isEmpty()) {
            for (int s : successors.get(work.poll())) if (!seen.get(s)) { seen.set(s); work.add(s); }
        }
        return seen;
    }
}
