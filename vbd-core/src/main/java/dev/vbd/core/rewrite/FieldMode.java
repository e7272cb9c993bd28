package dev.vbd.core.rewrite;

/**
 * How the program's fields are made sequentially consistent ({@code --fields}). The JDK's own
 * modules take {@link #jdk()}: volatile or fenced, never speculative.
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
    SPECULATIVE;

    /** The word the options take. */
    public String word() {
        return OptionWords.word(this);
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
        return plainInJvm() ? FENCED : VOLATILE;
    }

    /** The mode a word names, or null. */
    public static FieldMode of(String word) {
        return OptionWords.of(values(), word);
    }

    /** The words, for messages: {@code 'volatile', 'fenced' or 'speculative'}. */
    public static String choices() {
        return OptionWords.choices(values());
    }
}
