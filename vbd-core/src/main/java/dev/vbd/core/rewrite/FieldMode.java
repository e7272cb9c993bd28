package dev.vbd.core.rewrite;

/**
 * How the program's fields are made sequentially consistent ({@code --fields}), or, for
 * {@link #SAFE_CONSTRUCTION} ({@code --mode safe-construction}), that they are not: the rewrite
 * then gives constructors the guarantee of {@code final} fields and changes nothing else. The JDK's
 * own modules take {@link #jdk()}: volatile, fenced or safe construction, never speculative.
 */
public enum FieldMode {
    /** Fields that should be SC are declared volatile. */
    VOLATILE,
    /** Fields stay as declared; each access outside relaxed code is fenced. */
    FENCED,
    /**
     * As {@link #FENCED}, but an instance-field access skips its fences while the current thread
     * owns the object (it ran its constructor) and no other thread has touched an object of the
     * same hierarchy.
     */
    SPECULATIVE,
    /**
     * Not sequential consistency: fields stay as declared and every access as compiled, and each
     * constructor orders the stores it made before every point where its object may become visible
     * to another thread (each return, each leak of {@code this}) with a release fence, as HotSpot
     * does for a constructor that stores a {@code final} field.
     */
    SAFE_CONSTRUCTION;

    /** The word the options take. */
    public String word() {
        return OptionWords.word(this);
    }

    /** Whether the mode makes every access sequentially consistent (all but {@link #SAFE_CONSTRUCTION}). */
    public boolean sc() {
        return this != SAFE_CONSTRUCTION;
    }

    /** Whether the fields stay plain in the JVM. */
    public boolean plainInJvm() {
        return this != VOLATILE;
    }

    /**
     * How the JDK's own fields are made SC alongside a program's in this mode: plain in the JVM
     * whenever the program's are, so that relaxed JDK code gets the plain instruction too and a
     * JDK constructor's stores to its own object stay plain; never speculative (the JDK's classes
     * get no owner field).
     */
    public FieldMode jdk() {
        if (!sc()) return this;
        return plainInJvm() ? FENCED : VOLATILE;
    }

    /** The mode a word names, or null. */
    public static FieldMode of(String word) {
        return OptionWords.of(values(), word);
    }

    /** The words {@code --fields} takes, for messages: {@code 'volatile', 'fenced' or 'speculative'}. */
    public static String choices() {
        return OptionWords.choices(new FieldMode[] {VOLATILE, FENCED, SPECULATIVE});
    }
}
