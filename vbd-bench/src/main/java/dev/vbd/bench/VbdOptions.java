package dev.vbd.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The JVM options that put a plain {@code java} under vbd, asked once per relaxed config from
 * {@code bin/vbd jvm-args}; and the java, options, or whole command {@code bin/vbd run} would
 * execute, from {@code bin/vbd launch}. Asking before anything is timed also prepares the JDK, so no timed
 * invocation pays for that, and the timed JVMs run without the launcher's own JVM in front.
 */
final class VbdOptions {
    private VbdOptions() {}

    static List<String> jvmArgs(Path repo, String java, Path relaxed) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(repo.resolve("bin/vbd").toString(), "jvm-args", "--fields", "volatile"));
        if (relaxed != null) {
            cmd.add("--relaxed");
            cmd.add(relaxed.toString());
        }
        cmd.add("--");
        cmd.add(java);
        return ask(cmd, relaxed, 1);
    }

    /**
     * The java and options {@code bin/vbd run [--relaxed FILE] VBD_OPTIONS -- java} starts a program with: the
     * prepared image's own launcher, and the relaxed config as a system property. {@code prepared} is
     * how many prepared JDKs the run asks for in all: the cache keeps at least that many per JDK, so
     * that preparing the last does not remove the first before it ran.
     */
    static List<String> launchPrefix(Path repo, String java, Path relaxed, List<String> vbdOptions, int prepared)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(repo.resolve("bin/vbd").toString(), "launch"));
        if (relaxed != null) {
            cmd.add("--relaxed");
            cmd.add(relaxed.toString());
        }
        cmd.addAll(vbdOptions); // with --fields, whatever $VBD_FIELDS says
        cmd.add("--");
        cmd.add(java);
        return ask(cmd, relaxed, prepared);
    }

    /** The command {@code bin/vbd run -- java args...} executes, asked from {@code bin/vbd launch}. */
    static List<String> launchCommand(Path repo, String java, List<String> args) throws IOException, InterruptedException {
        return launchCommand(repo, List.of("--fields", "volatile"), java, args);
    }

    /** The same, with options of {@code bin/vbd run} ({@code --agent}). */
    static List<String> launchCommand(Path repo, List<String> vbdOptions, String java, List<String> args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(repo.resolve("bin/vbd").toString(), "launch"));
        cmd.addAll(vbdOptions);
        cmd.add("--");
        cmd.add(java);
        cmd.addAll(args);
        return ask(cmd, null, 1);
    }

    /** The cache's own default of prepared JDKs kept per JDK ({@code $VBD_CACHE_KEEP}). */
    private static final int CACHE_KEEPS = 4;

    private static List<String> ask(List<String> cmd, Path relaxed, int prepared) throws IOException, InterruptedException {
        // stderr stays on the terminal: preparing a JDK prints its progress there
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        keepAtLeast(pb.environment(), prepared);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        int rc = p.waitFor();
        if (rc != 0 || out.isEmpty()) {
            String what = "'" + String.join(" ", cmd) + "' failed (exit " + rc + ")" + (out.isEmpty() ? "" : ": " + out)
                    + "; its own message is above";
            // a bad relaxed config is the user's argument; anything else is the installation's problem
            if (rc == 2 && relaxed != null) throw new IllegalArgumentException("relaxed config " + relaxed + ": " + what);
            throw new IllegalStateException(what);
        }
        return ShellWords.split(out);
    }

    /** Makes the cache keep at least {@code prepared} JDKs where its default keeps fewer; {@code env} is a command's whole environment. */
    static void keepAtLeast(Map<String, String> env, int prepared) {
        if (prepared <= CACHE_KEEPS) return;
        String asked = env.get("VBD_CACHE_KEEP");
        try {
            if (asked != null && Integer.parseInt(asked.trim()) >= prepared) return;
        } catch (NumberFormatException e) {
            return; // bin/vbd names the bad value
        }
        env.put("VBD_CACHE_KEEP", Integer.toString(prepared));
    }
}
