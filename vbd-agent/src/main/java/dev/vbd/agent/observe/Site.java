package dev.vbd.agent.observe;

/**
 * One heap access in the program's code: where it is, what it reaches (a field, by name, or an
 * array's elements), and the candidate method it belongs to (-1: none).
 */
record Site(String className, String method, String sourceFile, int line, String target, boolean write,
            int candidate, int fieldKey) {
    /** The access, as a stack trace names a frame: {@code com.example.Counter.add(Counter.java:12)}. */
    String where() {
        String file = sourceFile == null ? "Unknown Source" : line > 0 ? sourceFile + ":" + line : sourceFile;
        return className + "." + method + "(" + file + ")";
    }

    String describe() {
        return (write ? "write of " : "read of ") + target + " at " + where();
    }
}
