package dev.vbd.agent;

import dev.vbd.core.rewrite.FieldMode;
import dev.vbd.core.rewrite.Optimisations;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The agent's options, passed as {@code -javaagent:vbd.jar=key=value&key=value} with URL-encoded
 * values so that any path survives. The launcher writes them; users normally never do.
 * {@code layout}: a layout file ({@link dev.vbd.core.layout.Layout}) for the program's fields. No
 * {@code fields} (null) means the prepared JDK's own: fenced on a JDK prepared with fenced fields,
 * volatile otherwise. No {@code optimise} means {@link Optimisations#ALL}.
 */
public record AgentOptions(Path relaxed, boolean skipUnrewritable, Path verifyReport, Path jdkDir, boolean strict,
                           FieldMode fields, Optimisations optimise, Path layout) {
    public static AgentOptions parse(String args) {
        Map<String, String> m = new LinkedHashMap<>();
        if (args != null && !args.isEmpty()) {
            for (String pair : args.split("&")) {
                int eq = pair.indexOf('=');
                String k = eq < 0 ? pair : pair.substring(0, eq);
                String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                m.put(k, v);
            }
        }
        for (String k : m.keySet()) {
            if (!k.equals("relaxed") && !k.equals("skipUnrewritable") && !k.equals("verify") && !k.equals("jdk")
                    && !k.equals("strict") && !k.equals("fields") && !k.equals("optimise") && !k.equals("layout")) {
                throw new IllegalArgumentException("unknown agent option '" + k + "'");
            }
        }
        FieldMode fields = null; // as the JDK was prepared
        if (m.containsKey("fields")) {
            fields = FieldMode.of(m.get("fields"));
            if (fields == null) {
                throw new IllegalArgumentException("agent option fields takes " + FieldMode.choices() + ", got '" + m.get("fields") + "'");
            }
        }
        Optimisations optimise = Optimisations.ALL;
        if (m.containsKey("optimise")) {
            optimise = Optimisations.of(m.get("optimise"));
            if (optimise == null) {
                throw new IllegalArgumentException("agent option optimise takes " + Optimisations.choices() + ", got '" + m.get("optimise") + "'");
            }
        }
        return new AgentOptions(
                m.containsKey("relaxed") ? Path.of(m.get("relaxed")) : null,
                m.containsKey("skipUnrewritable"),
                m.containsKey("verify") ? Path.of(m.get("verify")) : null,
                m.containsKey("jdk") ? Path.of(m.get("jdk")) : null,
                m.containsKey("strict"),
                fields,
                optimise,
                m.containsKey("layout") ? Path.of(m.get("layout")) : null);
    }

    public String format() {
        StringBuilder sb = new StringBuilder();
        if (relaxed != null) append(sb, "relaxed", relaxed.toString());
        if (skipUnrewritable) append(sb, "skipUnrewritable", "");
        if (verifyReport != null) append(sb, "verify", verifyReport.toString());
        if (jdkDir != null) append(sb, "jdk", jdkDir.toString());
        if (strict) append(sb, "strict", "");
        if (fields != null && fields != FieldMode.VOLATILE) append(sb, "fields", fields.word());
        if (optimise != null && optimise != Optimisations.ALL) append(sb, "optimise", optimise.word());
        if (layout != null) append(sb, "layout", layout.toString());
        return sb.toString();
    }

    private static void append(StringBuilder sb, String k, String v) {
        if (sb.length() > 0) sb.append('&');
        sb.append(k);
        if (!v.isEmpty()) sb.append('=').append(URLEncoder.encode(v, StandardCharsets.UTF_8));
    }
}
