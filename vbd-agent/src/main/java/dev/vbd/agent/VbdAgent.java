package dev.vbd.agent;

import dev.vbd.core.policy.Policy;
import dev.vbd.core.policy.RelaxedConfig;
import dev.vbd.core.policy.RelaxedConfigException;

import java.lang.instrument.Instrumentation;

/**
 * The agent: every class defined after it starts is rewritten on the way in. The JDK's own
 * classes arrive already rewritten from the prepared JDK (they carry the marker and pass through).
 */
public final class VbdAgent {
    static final int EXIT_BAD_SETUP = 2;

    private VbdAgent() {}

    public static void premain(String args, Instrumentation inst) {
        AgentOptions options;
        Policy policy;
        try {
            options = AgentOptions.parse(args);
            policy = new Policy(options.relaxed() == null ? RelaxedConfig.empty() : RelaxedConfig.load(options.relaxed()));
        } catch (RelaxedConfigException e) {
            die("bad relaxed config: " + e.getMessage());
            return;
        } catch (IllegalArgumentException e) {
            die("bad agent options: " + e.getMessage());
            return;
        }
        if (!runtimePatchedIn()) {
            die("this JVM runs an unprepared JDK (java.base lacks vbd's runtime); start it through 'bin/vbd run'"
                    + " or add the options 'bin/vbd jvm-args' prints");
            return;
        }
        // taken before any transformer is added: everything listed here was defined unrewritten or
        // comes from the prepared JDK
        Class<?>[] loadedBefore = inst.getAllLoadedClasses();
        EarlyClasses early = EarlyClasses.find(loadedBefore, policy, options.jdkDir());
        if (!early.isEmpty() && options.strict()) {
            System.err.println(early.warning(true));
            System.err.flush();
            Runtime.getRuntime().halt(VbdTransformer.EXIT_UNREWRITABLE);
            return;
        }
        RewriteStats s = new RewriteStats();
        DeclaredModifiers declared = new DeclaredModifiers();
        declared.install();
        VbdTransformer transformer = new VbdTransformer(policy, options.skipUnrewritable(), s, declared);
        if (!early.isEmpty()) transformer.fenceFields(early);
        transformer.warmUp();
        inst.addTransformer(transformer, false);
        HiddenClasses hidden = new HiddenClasses(transformer, s, options.verifyReport() != null);
        if (!hidden.install()) {
            die("the prepared JDK does not hand hidden classes to vbd (prepared by another vbd build?)");
            return;
        }
        if (!early.isEmpty()) {
            early.cover(inst);
            s.early.addAll(early.names);
            s.earlyUnfenced.putAll(early.failed);
            System.err.println(early.warning(false));
            System.err.flush();
        }
        if (options.verifyReport() != null) {
            VerifyWalk walk = VerifyWalk.start(inst);
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


    private static void die(String message) {
        System.err.println("vbd: " + message);
        System.err.flush();
        Runtime.getRuntime().halt(EXIT_BAD_SETUP);
    }
}
