package dev.vbd.core;

/**
 * The names rewritten bytecode uses. The rewriter emits them and the verifier looks for them,
 * so they are defined once, here.
 */
public final class Conventions {
    private Conventions() {}

    /** The runtime class patched into java.base. */
    public static final String RUNTIME = "java/util/concurrent/atomic/VbdRuntime";
    public static final String ACQUIRE = "acquire";
    public static final String RELEASE = "release";
    public static final String FULL = "full";
    public static final String FENCE_DESC = "()V";
    /** The runtime's volatile field, never written, whose load is an inline acquire fence. */
    public static final String ORDER = "order";
    public static final String ORDER_DESC = "I";

    /**
     * Whether acquire fences are that load rather than calls: where the JVM that
     * rewrites runs on x86-64 (the reasons are in the rewriter's {@code FencingVisitor}).
     */
    public static final boolean INLINE_FENCES = inlineFences(System.getProperty("os.arch", ""));

    public static boolean inlineFences(String osArch) {
        String arch = osArch.toLowerCase(java.util.Locale.ROOT);
        return arch.equals("amd64") || arch.equals("x86_64");
    }

    /** Bootstrap linking a relaxed method's access to a field vbd made volatile to its plain mode. */
    public static final String PLAIN_FIELD_BSM = "plainField";
    public static final String PLAIN_FIELD_BSM_DESC =
            "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;Ljava/lang/Class;I)Ljava/lang/invoke/CallSite;";

    /** Speculative fields: the runtime class, the owner field the rewriter adds, and the check. */
    public static final String SPECULATION = "java/util/concurrent/atomic/VbdSpeculation";
    public static final String OWNER_FIELD = "vbd$owner";
    public static final String OWNER_FIELD_DESC = "Ljava/lang/Thread;";
    public static final String OWNED_NAME = "owned";
    public static final String OWNED_DESC = "(Ljava/lang/Object;)Z";
    public static final String OWNED_BSM = "owned";
    public static final String OWNED_BSM_DESC =
            "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;Ljava/lang/Class;)Ljava/lang/invoke/CallSite;";
    public static final String AFTER_LOAD = "afterLoad";
    public static final String AFTER_STORE = "afterStore";
    public static final String AFTER_DESC = "(Z)V";
    public static final String BEFORE_CLONE = "beforeClone";
    public static final String BEFORE_CLONE_DESC = "(Ljava/lang/Object;)V";

    /**
     * Class-level marker (an invisible annotation: reflection never sees it) on every class
     * vbd rewrote. It makes the rewrite idempotent and tells the verifier what was done.
     * Elements: {@code flipped} (fields made volatile), {@code unfinal} (final fields that
     * lost final because a constructor may leak {@code this} first), {@code relaxed}
     * (methods left relaxed, as name+descriptor).
     */
    public static final String MARKER_DESC = "Ldev/vbd/internal/Rewritten;";

    /** The user-facing annotation. */
    public static final String RELAXED_DESC = "Ldev/vbd/Relaxed;";

    /** Format version of the rewrite, recorded in the marker and in the JDK cache key. */
    public static final int REWRITE_VERSION = 3;
}
