package dev.vbd.core.policy;

import java.util.ArrayList;
import java.util.List;

/**
 * A glob over dotted Java names: {@code *} matches within one name segment (no dot),
 * {@code **} matches across segments, and {@code p.**} is the package {@code p} itself and
 * everything below it. Everything else is literal ({@code $} included, so nested classes are
 * written as the JVM names them: {@code Outer$Inner}).
 *
 * <p>Matched by hand rather than by a regular expression: the rewrite asks for every class,
 * method and field it sees, and in a runtime image it does so before {@code main}, where the
 * regular-expression machinery would cost the program's start its own bootstrap.
 */
public final class NamePattern {
    private enum Kind { LITERAL, SEGMENT, ANY, OPTIONAL_SUBNAMES }

    private record Part(Kind kind, String literal) {}

    private final String text;
    private final Part[] parts;

    private NamePattern(String text, Part[] parts) {
        this.text = text;
        this.parts = parts;
    }

    public static NamePattern compile(String glob) {
        List<Part> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            Kind wild = null;
            if (c == '.' && glob.startsWith("**", i + 1)) {
                wild = Kind.OPTIONAL_SUBNAMES;
                i += 2;
            } else if (c == '*' && i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
                wild = Kind.ANY;
                i++;
            } else if (c == '*') {
                wild = Kind.SEGMENT;
            }
            if (wild == null) {
                literal.append(c);
                continue;
            }
            if (literal.length() > 0) parts.add(new Part(Kind.LITERAL, literal.toString()));
            literal.setLength(0);
            parts.add(new Part(wild, null));
        }
        if (literal.length() > 0) parts.add(new Part(Kind.LITERAL, literal.toString()));
        return new NamePattern(glob, parts.toArray(new Part[0]));
    }

    public boolean matches(String dottedName) {
        return matches(0, dottedName, 0);
    }

    private boolean matches(int part, String s, int at) {
        if (part == parts.length) return at == s.length();
        Part p = parts[part];
        switch (p.kind) {
            case LITERAL:
                return s.startsWith(p.literal, at) && matches(part + 1, s, at + p.literal.length());
            case SEGMENT:
                for (int end = at; ; end++) {
                    if (matches(part + 1, s, end)) return true;
                    if (end == s.length() || s.charAt(end) == '.') return false;
                }
            case ANY:
                for (int end = at; end <= s.length(); end++) {
                    if (matches(part + 1, s, end)) return true;
                }
                return false;
            default: // OPTIONAL_SUBNAMES: nothing, or a dot and anything
                if (matches(part + 1, s, at)) return true;
                if (at == s.length() || s.charAt(at) != '.') return false;
                for (int end = at + 1; end <= s.length(); end++) {
                    if (matches(part + 1, s, end)) return true;
                }
                return false;
        }
    }

    @Override
    public String toString() { return text; }

    /** Whether it has no wildcard: it matches its text and nothing else. */
    boolean isLiteral() {
        return text.indexOf('*') < 0;
    }
}
