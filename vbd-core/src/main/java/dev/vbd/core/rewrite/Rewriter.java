package dev.vbd.core.rewrite;

/** Rewrites class files one at a time; {@link KeptRewrites} keeps what another one does. */
interface Rewriter {
    /**
     * Rewrites a class; with {@code leaveOversizedMethods}, a method that would outgrow the JVM's
     * 64 KiB code limit once fenced is left as compiled instead of failing the whole class.
     */
    RewriteResult rewrite(byte[] bytes, boolean leaveOversizedMethods);

    /** What a kept rewrite must have been made by to stand in for one of this rewriter's. */
    String kind(boolean leaveOversizedMethods);
}
