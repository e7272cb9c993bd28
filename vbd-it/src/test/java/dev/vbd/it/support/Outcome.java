package dev.vbd.it.support;

import java.util.List;

/**
 * What one run produced. {@code timedOut} runs were killed; their exit status is meaningless
 * and their output is whatever they wrote before that.
 */
public record Outcome(String mode, Jvm jvm, List<String> command, int exitStatus, String stdout, String stderr,
                      boolean timedOut, long millis, String logs) {

    /** This run, for an assertion message: how it was started, how it ended, and the tail of its output. */
    public String describe() {
        return mode + " run on " + jvm + (timedOut ? " TIMED OUT (killed)" : " exited " + exitStatus)
                + " after " + millis + " ms\n  command: " + String.join(" ", abbreviated())
                + "\n  logs: " + logs
                + "\n  stdout (tail): " + tail(stdout) + "\n  stderr (tail): " + tail(stderr);
    }

    /** Fails, with the run described, unless the run ended on its own. */
    public Outcome requireCompleted() {
        if (timedOut) throw new AssertionError("the program did not end in time:\n" + describe());
        return this;
    }

    /** Fails, with the run described, unless it ended with this status. */
    public Outcome requireExit(int status) {
        requireCompleted();
        if (exitStatus != status) {
            throw new AssertionError("expected exit status " + status + ":\n" + describe());
        }
        return this;
    }

    private List<String> abbreviated() {
        // vbd's command is bin/vbd run -- java ...: short already; a stock one is short too
        return command.size() > 20 ? command.subList(0, 20) : command;
    }

    private static String tail(String s) {
        String t = s.length() > 2000 ? "..." + s.substring(s.length() - 2000) : s;
        return t.isEmpty() ? "(empty)" : "\n" + t.indent(4).stripTrailing();
    }
}
