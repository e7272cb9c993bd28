package dev.vbd.bench;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Report text without the absolute paths of the machine that made it: a file beside the report (its
 * logs) becomes a path relative to the report, the checkout a path relative to it, vbd's cache
 * {@code $VBD_CACHE}, and a JDK its directory's name. Paths appear
 * plain and URL-encoded (the agent's options), and both are replaced.
 */
final class Portable {
    /** A prepared JDK's patch jar or image names the cache it lives in: {@code CACHE/jdk/VERSION-KEY/patch/} or {@code .../image/}. */
    private static final Pattern CACHE = Pattern.compile("(/[^\\s\"=:,]+?)/jdk/[^/\\s\"]+/(?:patch|image)/");

    private Portable() {}

    static String of(String text, Path repo, String javaHome) {
        return of(text, repo, javaHome, null);
    }

    /** As above, for a report written to {@code reportDir}. */
    static String of(String text, Path repo, String javaHome, Path reportDir) {
        Map<String, String> swaps = new LinkedHashMap<>();
        Matcher m = CACHE.matcher(text);
        if (m.find()) swaps.put(m.group(1), "$VBD_CACHE");
        // first: the report's folder may lie inside the checkout
        if (reportDir != null) swaps.put(reportDir.toAbsolutePath().normalize() + "/", "");
        swaps.put(repo.toString() + "/", "");
        if (javaHome != null && javaHome.startsWith("/")) swaps.put(javaHome, Path.of(javaHome).getFileName().toString());
        String out = text;
        for (Map.Entry<String, String> e : swaps.entrySet()) {
            out = out.replace(e.getKey(), e.getValue())
                    .replace(URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8), URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8));
        }
        return out;
    }
}
