package dev.vbd.litmus.run;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How a fork runs under vbd, from the command {@code bin/vbd run} would execute for {@code java}
 * with no arguments (what {@code vbd launch} prints, asked in-process of vbd's jar as a list of
 * words), so the litmus suite tests exactly what users get (the JDK is prepared on first use). Its
 * first word is the launcher: the prepared runtime image's own, which then hosts jcstress, and whose
 * forks start the {@code java} of the host's home; the rest are the options each fork gets (vbd's
 * options; for a JDK without an image, the patched modules and vbd's agent).
 */
final class VbdArgs {
    private VbdArgs() {}

    /** The host's launcher, and the options every fork is given before its own. */
    record Forks(String host, List<String> prepend) {}

    /** {@code agent}: the forks rewrite with vbd's agent, as {@code bin/vbd run --agent} does; {@code layout}: {@code --layout}, or null. */
    static Forks of(Path home, String java, Path relaxed, boolean agent, String mode, String fields, String optimise, Path layout)
            throws IOException {
        List<String> args = new ArrayList<>(List.of("--relaxed", relaxed.toString()));
        if (agent) args.add("--agent");
        if (layout != null) args.addAll(List.of("--layout", layout.toString()));
        args.addAll(List.of("--mode", mode));
        if (mode.equals("sc")) {
            args.addAll(List.of("--fields", fields)); // whatever $VBD_FIELDS says
            args.addAll(List.of("--optimise", optimise));
        }
        args.addAll(List.of("--", java));
        List<String> words = launchCommand(home.resolve("vbd-cli/target/vbd.jar"), args);
        return new Forks(words.get(0), List.copyOf(words.subList(1, words.size())));
    }

    /** {@code dev.vbd.cli.Launch.command(args)} of vbd's jar, on a class loader of its own. */
    @SuppressWarnings("unchecked")
    static List<String> launchCommand(Path vbdJar, List<String> args) throws IOException {
        URL jar = vbdJar.toUri().toURL();
        try (URLClassLoader vbd = new URLClassLoader(new URL[] {jar}, ClassLoader.getPlatformClassLoader())) {
            return List.copyOf((List<String>) vbd.loadClass("dev.vbd.cli.Launch")
                    .getMethod("command", List.class, int.class).invoke(null, args, 1));
        } catch (InvocationTargetException e) {
            throw new IOException("vbd launch " + String.join(" ", args) + ": " + e.getCause().getMessage(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IOException(jar + " is not a vbd.jar that answers in-process: " + e, e);
        }
    }
}
