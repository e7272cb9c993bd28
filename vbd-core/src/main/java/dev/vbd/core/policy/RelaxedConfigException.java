package dev.vbd.core.policy;

/** A relaxed-scope config file that cannot be read; names the file, the line and the reason. */
public final class RelaxedConfigException extends Exception {
    private final String file;
    private final int line;
    private final String reason;

    public RelaxedConfigException(String file, int line, String reason) {
        super(file + (line > 0 ? ":" + line : "") + ": " + reason);
        this.file = file;
        this.line = line;
        this.reason = reason;
    }

    public String file() { return file; }
    public int line() { return line; }
    public String reason() { return reason; }
}
