package dev.vbd.core.rewrite;

import java.util.Locale;

/**
 * The words an option takes, one per constant of an enum: its name in lower case, with hyphens. No
 * lambdas: the image's rewriting parses its options before {@code java.lang.invoke} may run.
 */
final class OptionWords {
    private OptionWords() {}

    static String word(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The constant whose word is {@code given}, or null. */
    static <E extends Enum<E>> E of(E[] values, String given) {
        for (E e : values) if (word(e).equals(given)) return e;
        return null;
    }

    /** {@code 'a', 'b' or 'c'}. */
    static String choices(Enum<?>[] values) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            sb.append(i == 0 ? "" : i == values.length - 1 ? " or " : ", ").append('\'').append(word(values[i])).append('\'');
        }
        return sb.toString();
    }
}
