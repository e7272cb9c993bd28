package dev.vbd.cli;

/** {@code vbd verify}. */
final class VerifyCommand {
    private VerifyCommand() {}

    static int run(Options o) throws UsageException {
        throw new UsageException("verify: not available in this build");
    }
}
