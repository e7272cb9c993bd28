package dev.vbd.bench;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The JVM options that put a plain {@code java} under vbd ({@code vbd jvm-args}), asked once per
 * relaxed config; and the java, options, or whole command {@code bin/vbd run} would execute
 * ({@code vbd launch}). Asked in-process of vbd's jar, as lists of words. Asking before anything is
 * timed also prepares the JDK, so no timed invocation pays for that, and the timed JVMs run without
 * the launcher's own JVM in front.
 */
final class VbdOptions {
    private VbdOptions() {}

    static List<String> jvmArgs(Path repo, String java, Path relaxed) throws IOException {
        List<String> args = new ArrayList<>(List.of("--fields", "volatile"));
        if (relaxed != null) args.addAll(List.of("--relaxed", relaxed.toString()));
        args.addAll(List.of("--", java));
        return ask(repo, "jvmArgs", args, relaxed, 1);
    }

    /**
     * The java and options {@code bin/vbd run [--relaxed FILE] VBD_OPTIONS -- java} starts a program with: the
     * prepared image's own launcher, and the relaxed config as a system property. {@code prepared} is
     * how many prepared JDKs the run asks for in all: the cache keeps at least that many per JDK, so
     * that preparing the last does not remove the first before it ran.
     */
    static List<String> launchPrefix(Path repo, String java, Path relaxed, List<String> vbdOptions, int prepared)
            throws IOException {
        List<String> args = new ArrayList<>();
        if (relaxed != null) args.addAll(List.of("--relaxed", relaxed.toString()));
        args.addAll(vbdOptions); // with --fields, whatever $VBD_FIELDS says
        args.addAll(List.of("--", java));
        return ask(repo, "command", args, relaxed, prepared);
    }

    /** The command {@code bin/vbd run -- java args...} executes. */
    static List<String> launchCommand(Path repo, String java, List<String> args) throws IOException {
        return launchCommand(repo, List.of("--fields", "volatile"), java, args);
    }

    /** The same, with options of {@code bin/vbd run} ({@code --agent}). */
    static List<String> launchCommand(Path repo, List<String> vbdOptions, String java, List<String> args)
            throws IOException {
        List<String> all = new ArrayList<>(vbdOptions);
        all.add("--");
        all.add(java);
        all.addAll(args);
        return ask(repo, "command", all, null, 1);
    }

    /** The cache's own default of prepared JDKs kept per JDK ({@code $VBD_CACHE_KEEP}). */
    private static final int CACHE_KEEPS = 4;

    /** Calls {@code dev.vbd.cli.Launch.<method>(args, prepared)} in vbd's jar, on a class loader of its own. */
    @SuppressWarnings("unchecked")
    private static List<String> ask(Path repo, String method, List<String> args, Path relaxed, int prepared) throws IOException {
        URL jar = repo.resolve("vbd-cli/target/vbd.jar").toUri().toURL();
        try (URLClassLoader vbd = new URLClassLoader(new URL[] {jar}, ClassLoader.getPlatformClassLoader())) {
            return List.copyOf((List<String>) vbd.loadClass("dev.vbd.cli.Launch")
                    .getMethod(method, List.class, int.class).invoke(null, args, prepared));
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            String what = "vbd " + (method.equals("command") ? "launch " : "jvm-args ") + String.join(" ", args) + ": " + cause.getMessage();
            // a bad relaxed config is the user's argument; anything else is the installation's problem
            if (cause instanceof IllegalArgumentException && relaxed != null) throw new IllegalArgumentException("relaxed config " + relaxed + ": " + what, cause);
            if (cause instanceof IOException io) throw new IOException(what, io);
            throw new IllegalStateException(what, cause);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(jar + " is not a vbd.jar that answers in-process: " + e, e);
        }
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
