package dev.vbd.cli;

/** Bad input from the user; the message says what and which. Exit status 2. */
public final class UsageException extends Exception {
    public UsageException(String message) {
        super(message);
    }
}
