package dev.vbd.core.rewrite;

import java.util.List;
import java.util.Map;

/**
 * The outcome of rewriting one class. {@code bytes} is null unless the class was rewritten.
 * {@code unfenced}: methods (name and descriptor) left as compiled because fencing them would
 * outgrow the JVM's code limit, each with the reason.
 */
public record RewriteResult(String className, Status status, byte[] bytes, String reason,
                            List<String> flipped, List<String> unfinal, List<String> relaxedMethods,
                            Map<String, String> unfenced) {
    public RewriteResult(String className, Status status, byte[] bytes, String reason,
                         List<String> flipped, List<String> unfinal, List<String> relaxedMethods) {
        this(className, status, bytes, reason, flipped, unfinal, relaxedMethods, Map.of());
    }

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
