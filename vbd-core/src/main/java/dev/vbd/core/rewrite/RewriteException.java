package dev.vbd.core.rewrite;

/** A class vbd cannot rewrite; the message names the class and the cause. */
public final class RewriteException extends RuntimeException {
    private final String className;

    public RewriteException(String className, String message, Throwable cause) {
        super(className + ": " + message, cause);
        this.className = className;
    }

    public String className() { return className; }
}
