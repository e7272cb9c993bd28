package dev.vbd.litmus.run;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How a fork runs under vbd, from the command {@code bin/vbd run} would execute for {@code java}
 * with no arguments ({@code bin/vbd launch}), so the litmus suite tests exactly what users get (the
 * JDK is prepared on first use). Its first word is the launcher: the prepared runtime image's own,
 * which then hosts jcstress, and whose forks start the {@code java} of the host's home; the rest are the options each fork gets (vbd's options; for a
 * JDK without an image, the patched modules and vbd's agent).
 */
final class VbdArgs {
    private VbdArgs() {}

    /** The host's launcher, and the options every fork is given before its own. */
    record Forks(String host, List<String> prepend) {}

    /** {@code agent}: the forks rewrite with vbd's agent, as {@code bin/vbd run --agent} does. */
    static Forks of(Path home, String java, Path relaxed, boolean agent, String mode, String fields, String optimise)
            throws IOException, InterruptedException {
        Path vbd = home.resolve("bin/vbd");
        List<String> cmd = new ArrayList<>(List.of(vbd.toString(), "launch", "--relaxed", relaxed.toString()));
        if (agent) cmd.add("--agent");
        cmd.addAll(List.of("--mode", mode));
        if (mode.equals("sc")) {
            cmd.addAll(List.of("--fields", fields)); // whatever $VBD_FIELDS says
            cmd.addAll(List.of("--optimise", optimise));
        }
        cmd.addAll(List.of("--", java));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        p.getInputStream().transferTo(buf);
        int status = p.waitFor();
        if (status != 0) throw new IOException(vbd + " launch failed (exit status " + status + ")");
        List<String> words = unquote(buf.toString(StandardCharsets.UTF_8).trim());
        if (words.isEmpty()) throw new IOException(vbd + " launch printed no command");
        return new Forks(words.get(0), List.copyOf(words.subList(1, words.size())));
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
