package dev.vbd.agent;

/**
 * The agent's one guard against calling itself back on the same thread. Reading a class file
 * through a loader, reading a marker from the JDK's modules and rewriting a hidden class may each
 * load or define classes, and so come back into the agent before they finish; each is entered at
 * most once per thread, and a thread inside one may still enter the others. One thread-local for
 * all of them, holding which of them the thread is inside.
 *
 * <p>No lambdas: in a runtime image this runs before {@code main}.
 */
final class CircularityGuard {
    /** The work that must not run again on a thread already inside it. */
    enum Work {
        /** Reading a class file through its loader for the rewriter ({@link LoaderBytesSource}). */
        READING_CLASS_FILE,
        /** Reading a prepared JDK class's marker from its module ({@link DeclaredModifiers}). */
        READING_MARKER,
        /** Rewriting a hidden class ({@link HiddenClasses}). */
        REWRITING_HIDDEN;

        private final int bit = 1 << ordinal();
    }

    private static final ThreadLocal<int[]> INSIDE = new ThreadLocal<int[]>() {
        @Override
        protected int[] initialValue() {
            return new int[1];
        }
    };

    private CircularityGuard() {}

    /** Whether this thread is inside {@code work}. */
    static boolean inside(Work work) {
        return (INSIDE.get()[0] & work.bit) != 0;
    }

    /** Enters {@code work} on this thread: false, entering nothing, if the thread is inside it already. */
    static boolean enter(Work work) {
        int[] inside = INSIDE.get();
        if ((inside[0] & work.bit) != 0) return false;
        inside[0] |= work.bit;
        return true;
    }

    /** Leaves {@code work}, which this thread entered. */
    static void exit(Work work) {
        INSIDE.get()[0] &= ~work.bit;
    }
}
