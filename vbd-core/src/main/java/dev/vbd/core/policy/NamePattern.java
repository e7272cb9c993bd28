package dev.vbd.core.policy;

import java.util.regex.Pattern;

/**
 * A glob over dotted Java names: {@code *} matches within one name segment (no dot),
 * {@code **} matches across segments. Everything else is literal ({@code $} included,
 * so nested classes are written as the JVM names them: {@code Outer$Inner}).
 */
final class NamePattern {
    private final String text;
    private final Pattern regex;

    private NamePattern(String text, Pattern regex) {
        this.text = text;
        this.regex = regex;
    }

    static NamePattern compile(String glob) {
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c == '.' && glob.startsWith("**", i + 1)) {
                // "p.**" is the package p itself and everything below it: zero or more segments
                re.append("(?:\\..*)?");
                i += 2;
            } else if (c == '*') {
                if (i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
                    re.append(".*");
                    i++;
                } else {
                    re.append("[^.]*");
                }
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return new NamePattern(glob, Pattern.compile(re.toString()));
    }

    boolean matches(String dottedName) {
        return regex.matcher(dottedName).matches();
    }

    @Override
    public String toString() { return text; }
}
