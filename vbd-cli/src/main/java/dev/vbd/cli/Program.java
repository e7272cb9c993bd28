package dev.vbd.cli;

import java.io.IOException;

/** The user's program, run to its end by a command of vbd's. */
final class Program {
    private Program() {}

    /** Starts it and waits for it; its exit status. A command that cannot start is the user's error. */
    static int run(ProcessBuilder pb) throws UsageException, IOException {
        try {
            return pb.start().waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the program");
        } catch (IOException e) {
            throw new UsageException("cannot start '" + pb.command().get(0) + "': " + e.getMessage());
        }
    }
}
