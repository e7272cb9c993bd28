package dev.vbd.core.layout;

/** A layout file that cannot be read; names the file, the line and the reason. */
public final class LayoutException extends Exception {
    public LayoutException(String file, int line, String reason) {
        super(file + (line > 0 ? ":" + line : "") + ": " + reason);
    }
}
