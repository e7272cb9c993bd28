package dev.vbd.core.rewrite;

/** What the rewrite does to one field's declaration. */
public enum FieldDecision {
    /** Left as declared: already volatile, relaxed, or a final that every write to keeps final ({@code ConstructorLeaks#unsafeFinals}). */
    KEEP,
    /** Made volatile. */
    VOLATILE,
    /**
     * A final field written where final semantics do not cover the write (after a constructor may
     * have leaked {@code this}, into another object, outside its constructors or its class's
     * initialiser): loses final, becomes volatile.
     */
    UNFINAL_VOLATILE
}
