package dev.vbd.core.rewrite;

/** What the rewrite does to one field's declaration. */
public enum FieldDecision {
    /** Left as declared: static final, already volatile, relaxed, or a final that cannot leak. */
    KEEP,
    /** Made volatile. */
    VOLATILE,
    /** A final field a constructor may leak before storing it: loses final, becomes volatile. */
    UNFINAL_VOLATILE
}
