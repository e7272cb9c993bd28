package dev.vbd.cli;

import java.util.List;

/** POSIX shell quoting, so that bin/vbd can exec the exact argument vector. */
final class Shell {
    private Shell() {}

    static String quote(List<String> words) {
        StringBuilder sb = new StringBuilder();
        for (String w : words) {
            if (sb.length() > 0) sb.append(' ');
            sb.append(quote(w));
        }
        return sb.toString();
    }

    static String quote(String w) {
        if (!w.isEmpty() && w.matches("[A-Za-z0-9_@%+=:,./-]+")) return w;
        return "'" + w.replace("'", "'\\''") + "'";
    }
}
