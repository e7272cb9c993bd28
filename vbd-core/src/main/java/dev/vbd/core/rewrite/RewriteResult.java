package dev.vbd.core.rewrite;

import java.util.List;

/** The outcome of rewriting one class. {@code bytes} is null unless the class was rewritten. */
public record RewriteResult(String className, Status status, byte[] bytes, String reason,
                            List<String> flipped, List<String> unfinal, List<String> relaxedMethods) {
    public enum Status {
        /** Rewritten now; {@code bytes} holds the new class file. */
        REWRITTEN,
        /** Carries the marker of an earlier rewrite; nothing to do. */
        ALREADY_REWRITTEN,
        /** Deliberately left alone; {@code reason} says why. */
        EXCLUDED
    }

    static RewriteResult excluded(String name, String reason) {
        return new RewriteResult(name, Status.EXCLUDED, null, reason, List.of(), List.of(), List.of());
    }

    static RewriteResult already(String name) {
        return new RewriteResult(name, Status.ALREADY_REWRITTEN, null, "already rewritten", List.of(), List.of(), List.of());
    }
}
