package dev.vbd.agent;

import dev.vbd.core.layout.Layout;
import dev.vbd.core.policy.Policy;
import dev.vbd.core.policy.RelaxedConfig;
import dev.vbd.core.policy.RelaxedConfigException;
import dev.vbd.core.rewrite.FieldMode;

import dev.vbd.agent.layout.LayoutAgent;
import dev.vbd.agent.observe.ObserveAgent;

import java.io.File;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.lang.instrument.Instrumentation;

/**
 * The agent: every class defined after it starts is rewritten on the way in. The JDK's own
 * classes arrive already rewritten from the prepared JDK (they carry the marker and pass through).
 */
public final class VbdAgent {
    private VbdAgent() {}

    /** The agent's argument for {@link ObserveAgent}'s mode: {@code observe=DIR}, on a stock JDK. */
    public static final String OBSERVE = "observe=";
    /** The agent's argument for {@link LayoutAgent}'s mode: {@code layout=DIR}, on a stock JDK. */
    public static final String LAYOUT = "layout=";

    public static void premain(String args, Instrumentation inst) {
        if (args != null && args.startsWith(OBSERVE)) {
            try {
                ObserveAgent.start(Path.of(URLDecoder.decode(args.substring(OBSERVE.length()), StandardCharsets.UTF_8)), inst);
            } catch (IOException e) {
                LoadTimeRewriter.die("the observer cannot start: " + e);
            }
        } else if (args != null && args.startsWith(LAYOUT)) {
            try {
                LayoutAgent.start(Path.of(URLDecoder.decode(args.substring(LAYOUT.length()), StandardCharsets.UTF_8)), inst);
            } catch (IOException e) {
                LoadTimeRewriter.die("the layout probe cannot start: " + e.getMessage());
            }
        } else {
            rewrite(args, inst);
        }
    }

    /** The agent proper: every class rewritten as it loads, on a prepared JDK. */
    private static void rewrite(String args, Instrumentation inst) {
        AgentOptions options;
        Policy policy;
        try {
            options = AgentOptions.parse(args);
            policy = new Policy(options.relaxed() == null ? RelaxedConfig.empty() : RelaxedConfig.load(options.relaxed()));
        } catch (RelaxedConfigException e) {
            LoadTimeRewriter.die("bad relaxed config: " + e.getMessage());
            return;
        } catch (IllegalArgumentException e) {
            LoadTimeRewriter.die("bad agent options: " + e.getMessage());
            return;
        }
        if (!runtimePatchedIn()) {
            LoadTimeRewriter.die("this JVM runs an unprepared JDK (java.base lacks vbd's runtime); start it through 'bin/vbd run'"
                    + " or add the options 'bin/vbd jvm-args' prints");
            return;
        }
        File jdkDir = options.jdkDir() == null ? null : options.jdkDir().toFile();
        FieldMode fields = LoadTimeRewriter.programFieldsOrDie(jdkDir, options.fields());
        if (fields == null) return;
        if (java.util.concurrent.atomic.VbdRuntime.rewritesDefinedClasses()) {
            LoadTimeRewriter.die("this Java home is a vbd runtime image that rewrites every class itself;"
                    + " vbd's agent runs in it only with -Dvbd.rewrite=agent");
            return;
        }
        // taken before any transformer is added: everything listed here was defined unrewritten or
        // comes from the prepared JDK
        Class<?>[] loadedBefore = inst.getAllLoadedClasses();
        OwnClasses own = OwnClasses.ofAgent();
        EarlyClasses early = EarlyClasses.find(loadedBefore, policy, own, options.jdkDir(), fields);
        if (!early.isEmpty() && options.strict()) {
            System.err.println(early.warning(true));
            System.err.flush();
            Runtime.getRuntime().halt(LoadTimeRewriter.EXIT_UNREWRITABLE);
            return;
        }
        RewriteStats s = new RewriteStats();
        DeclaredModifiers declared = new DeclaredModifiers();
        declared.install();
        LoadTimeRewriter transformer = new LoadTimeRewriter(policy, options.skipUnrewritable(), fields, s, declared, false);
        transformer.optimise(options.optimise());
        Layout layout = LoadTimeRewriter.layoutOrDie(options.layout());
        if (layout == null) return;
        transformer.layout(layout);
        if (!early.isEmpty()) transformer.fenceFields(early);
        transformer.jdkFencedFields(jdkDir);
        transformer.warmUp();
        inst.addTransformer(new VbdTransformer(transformer, own, s), false);
        HiddenClasses hidden = new HiddenClasses(transformer, own, s, options.verifyReport() != null);
        if (!hidden.install()) {
            LoadTimeRewriter.die("the prepared JDK does not hand hidden classes to vbd (prepared by another vbd build?)");
            return;
        }
        if (!early.isEmpty() && !fields.sc()) {
            // their constructors cannot gain fences without rewriting them again, which safe
            // construction alone does not justify: they run as compiled, and the verifier lists them
            s.early.addAll(early.names);
            System.err.println(early.constructionWarning());
            System.err.flush();
        } else if (!early.isEmpty()) {
            early.cover(inst);
            s.early.addAll(early.names);
            s.earlyUnfenced.putAll(early.failed);
            System.err.println(early.warning(false));
            System.err.flush();
        }
        if (options.verifyReport() != null) {
            VerifyWalk walk = VerifyWalk.start(inst, own);
            transformer.onRewritten(walk);
            Runtime.getRuntime().addShutdownHook(new Thread(
                    () -> walk.run(inst, policy, options, s, hidden), "vbd-verify"));
        }
    }

    private static boolean runtimePatchedIn() {
        try {
            Class.forName("java.util.concurrent.atomic.VbdRuntime", false, null);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
