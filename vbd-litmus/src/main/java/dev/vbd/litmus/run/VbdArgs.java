package dev.vbd.litmus.run;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM options that put a fork under vbd, from {@code bin/vbd jvm-args}: the same command a user
 * runs, so the litmus suite tests exactly what users get (the JDK is prepared on first use).
 */
final class VbdArgs {
    private VbdArgs() {}

    static List<String> of(Path home, String java, Path relaxed) throws IOException, InterruptedException {
        Path vbd = home.resolve("bin/vbd");
        Process p = new ProcessBuilder(vbd.toString(), "jvm-args", "--relaxed", relaxed.toString(), "--", java)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        p.getInputStream().transferTo(buf);
        int status = p.waitFor();
        if (status != 0) throw new IOException(vbd + " jvm-args failed (exit status " + status + ")");
        return unquote(buf.toString(StandardCharsets.UTF_8).trim());
    }

    /** Splits a line of POSIX-shell words as {@code vbd jvm-args} quotes them (bare or single-quoted). */
    static List<String> unquote(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean inWord = false, quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '\'') quoted = false;
                else w.append(c);
            } else if (c == '\'') {
                quoted = true;
                inWord = true;
            } else if (c == '\\' && i + 1 < line.length()) {
                w.append(line.charAt(++i));
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(w.toString());
                    w.setLength(0);
                    inWord = false;
                }
            } else {
                w.append(c);
                inWord = true;
            }
        }
        if (quoted) throw new IllegalArgumentException("unbalanced quote in: " + line);
        if (inWord) words.add(w.toString());
        return words;
    }
}
