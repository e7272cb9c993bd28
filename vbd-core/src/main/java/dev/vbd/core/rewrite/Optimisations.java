package dev.vbd.core.rewrite;

/**
 * Which accesses the rewrite leaves plain because it proves no other thread can see them
 * ({@code --optimise}). Every choice is sequentially consistent; all but {@link #ALL} exist to
 * measure what each proof buys.
 */
public enum Optimisations {
    /** Both proofs (the default). */
    ALL(true, true),
    /**
     * A constructor's accesses to its own object before the object can have left it: with fields
     * plain in the JVM only ({@link FieldMode#plainInJvm()}), since a field declared volatile has no
     * plain access.
     */
    CONSTRUCTORS(true, false),
    /** Elements of arrays that never leave the method that allocated them, in every field mode. */
    LOCAL_ARRAYS(false, true),
    /** Every access outside relaxed code fenced. */
    NONE(false, false);

    private final boolean constructors;
    private final boolean localArrays;

    Optimisations(boolean constructors, boolean localArrays) {
        this.constructors = constructors;
        this.localArrays = localArrays;
    }

    public boolean constructors() {
        return constructors;
    }

    public boolean localArrays() {
        return localArrays;
    }

    /** The word the options take. */
    public String word() {
        return OptionWords.word(this);
    }

    /** The choice a word names, or null. */
    public static Optimisations of(String word) {
        return OptionWords.of(values(), word);
    }

    /** The words, for messages: {@code 'all', 'constructors', 'local-arrays' or 'none'}. */
    public static String choices() {
        return OptionWords.choices(values());
    }
}
