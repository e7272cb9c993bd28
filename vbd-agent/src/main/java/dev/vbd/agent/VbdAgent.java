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
        RewriteStats s = new RewriteStats();
        DeclaredModifiers declared = new DeclaredModifiers();
        declared.install();
        inst.addTransformer(new VbdTransformer(policy, options.skipUnrewritable(), s, declared), false);
        if (options.verifyReport() != null) {
            VerifyWalk walk = VerifyWalk.start(inst);
            Runtime.getRuntime().addShutdownHook(new Thread(
                    () -> walk.run(inst, policy, options, s), "vbd-verify"));
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
