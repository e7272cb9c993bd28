package dev.vbd.bench;

import java.util.ArrayList;
import java.util.List;

/** Splits a line of POSIX shell words (quotes and backslashes, no expansions) into its arguments. */
final class ShellWords {
    private ShellWords() {}

    static List<String> split(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder w = null;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\'') {
                int end = line.indexOf('\'', i + 1);
                if (end < 0) throw new IllegalArgumentException("unterminated ' in: " + line);
                if (w == null) w = new StringBuilder();
                w.append(line, i + 1, end);
                i = end;
            } else if (c == '"') {
                if (w == null) w = new StringBuilder();
                int j = i + 1;
                for (; j < line.length() && line.charAt(j) != '"'; j++) {
                    char d = line.charAt(j);
                    if (d == '\\' && j + 1 < line.length() && "\"\\$`".indexOf(line.charAt(j + 1)) >= 0) d = line.charAt(++j);
                    w.append(d);
                }
                if (j >= line.length()) throw new IllegalArgumentException("unterminated \" in: " + line);
                i = j;
            } else if (c == '\\') {
                if (i + 1 >= line.length()) throw new IllegalArgumentException("trailing \\ in: " + line);
                if (w == null) w = new StringBuilder();
                w.append(line.charAt(++i));
            } else if (Character.isWhitespace(c)) {
                if (w != null) {
                    words.add(w.toString());
                    w = null;
                }
            } else {
                if (w == null) w = new StringBuilder();
                w.append(c);
            }
        }
        if (w != null) words.add(w.toString());
        return words;
    }
}
