package dev.vbd.cli;

import java.io.IOException;
import java.util.List;

/**
 * What {@code vbd launch} and {@code vbd jvm-args} print, as lists of words, for vbd's own programs
 * (the bench, the litmus runner) to call in-process on vbd's jar: they take the words as they are,
 * never shell text to split again. Public, and in JDK types only, because they call it through a
 * class loader of their own on that jar.
 */
public final class Launch {
    private Launch() {}

    /**
     * The command {@code vbd run ARGS} executes: {@code args} are vbd's options, {@code --} and the
     * java command line. {@code prepared}: how many prepared JDKs the caller asks for in all, so
     * that the cache keeps at least that many (preparing the last must not remove the first).
     *
     * @throws IllegalArgumentException for a bad argument, its message naming it
     */
    public static List<String> command(List<String> args, int prepared) throws IOException {
        try {
            return Main.launchCommand(Options.parse(Verb.RUN.words, args, Verb.RUN.options).keepingAtLeast(prepared), null);
        } catch (UsageException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** The options {@code vbd jvm-args ARGS} prints; as {@link #command}. */
    public static List<String> jvmArgs(List<String> args, int prepared) throws IOException {
        try {
            return Main.jvmArgs(Options.parse(Verb.JVM_ARGS.words, args, Verb.JVM_ARGS.options).keepingAtLeast(prepared));
        } catch (UsageException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }
}
