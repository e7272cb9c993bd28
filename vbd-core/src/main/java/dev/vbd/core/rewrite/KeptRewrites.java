package dev.vbd.core.rewrite;

import dev.vbd.core.Consulted;
import dev.vbd.core.analysis.ClassFacts;
import dev.vbd.core.analysis.ConstructorLeaks;

import java.util.List;

/**
 * A rewriter that keeps each rewrite of another in a {@link RewriteStore} and takes rewrites from
 * it. A kept rewrite stands in for a new one only for the same bytes, the same kind of rewriter,
 * and the same answers about other classes ({@link Consulted}). A class taken from the store is
 * not read: relaxed code rewritten later that touches the fields of a class generated at run time
 * (whose bytes the source cannot find) keeps that access volatile.
 */
final class KeptRewrites implements Rewriter {
    private final Rewriter fresh;
    private final RewriteStore store;
    private final FieldDecisions decisions;
    private final ConstructorLeaks leaks;
    private final DefinedClasses defined;

    KeptRewrites(Rewriter fresh, RewriteStore store, FieldDecisions decisions, ConstructorLeaks leaks,
                 DefinedClasses defined) {
        this.fresh = fresh;
        this.store = store;
        this.decisions = decisions;
        this.leaks = leaks;
        this.defined = defined;
    }

    @Override
    public String kind(boolean leaveOversizedMethods) {
        return fresh.kind(leaveOversizedMethods);
    }

    @Override
    public RewriteResult rewrite(byte[] bytes, boolean leaveOversizedMethods) {
        String kind = kind(leaveOversizedMethods);
        RewriteStore.Kept k;
        try {
            k = store.find(kind, bytes);
        } catch (RuntimeException e) {
            k = null; // the store is a cache: whatever is wrong with it, the class is rewritten anew
        }
        if (k != null && stillHolds(k, bytes)) {
            defined.record(k.result().className(), bytes);
            store.hits.incrementAndGet();
            return k.result();
        }
        Consulted consulted = Consulted.begin();
        RewriteResult r;
        try {
            r = fresh.rewrite(bytes, leaveOversizedMethods);
        } finally {
            consulted.end();
        }
        try {
            store.put(kind, bytes, r, consulted.answers());
        } catch (RuntimeException e) {
            // not kept; the rewrite stands
        }
        return r;
    }

    /**
     * Whether a kept rewrite is what rewriting the bytes now would give: whether every question it
     * asked about other classes gets the same answer now.
     */
    private boolean stillHolds(RewriteStore.Kept k, byte[] bytes) {
        List<Consulted.Answer> answers = k.consulted();
        for (Consulted.Answer a : answers) {
            if (a.question() == Consulted.Question.MADE_VOLATILE || a.question() == Consulted.Question.FENCED) {
                // relaxed code: it may ask about this class's own fields, which a class generated at
                // run time has no bytes for the source to find; a new rewrite would know them from here
                try {
                    decisions.remember(k.result().className(), decisions.trusted(ClassFacts.read(bytes), bytes));
                } catch (RuntimeException e) {
                    return false;
                }
                break;
            }
        }
        for (Consulted.Answer a : answers) {
            // fences an access turns out not to need cost time, not order: a kept rewrite may keep them
            if (a.question() == Consulted.Question.FENCED && a.value()) continue;
            Boolean now = answerNow(a);
            if (now == null || now != a.value()) return false;
        }
        return true;
    }

    /** The answer to a kept rewrite's question now, or null for a question this version does not ask. */
    private Boolean answerNow(Consulted.Answer a) {
        String s = a.subject();
        switch (a.question()) {
            case PACKAGE_RELAXED:
                return decisions.packageAnnotated(s);
            case LEAK_FREE:
                return leaks.leakFree(s);
            case MADE_VOLATILE:
            case FENCED:
            case DECLARED_BY_PROGRAM: {
                int i = s.indexOf(';');
                int j = s.indexOf(';', i + 1);
                if (i < 0 || j < 0) return null;
                String owner = s.substring(0, i), field = s.substring(i + 1, j), desc = s.substring(j + 1);
                return a.question() == Consulted.Question.FENCED ? decisions.fenced(owner, field, desc)
                        : a.question() == Consulted.Question.DECLARED_BY_PROGRAM ? decisions.declaredByProgram(owner, field, desc)
                        : decisions.madeVolatile(owner, field, desc);
            }
            default:
                return null;
        }
    }
}
