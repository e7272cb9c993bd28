package dev.vbd.agent;

import dev.vbd.core.policy.Policy;
import dev.vbd.core.policy.RelaxedConfig;
import dev.vbd.core.policy.RelaxedConfigException;

import java.util.concurrent.atomic.VbdRuntime;

/**
 * vbd in a prepared runtime image, without an agent. The image's java.base hands every class
 * defined from bytes here ({@code java.lang.VbdDefineClass}), and every hidden class to
 * {@link HiddenClasses}; {@code VbdRuntime} loads this class, which starts the rewriting, when
 * the first class is defined after the module system is up: before any class of the program.
 *
 * <p>The image carries this class and everything it uses in its java.base, relocated into
 * {@code jdk.internal.misc} and archived with the JDK's classes, so that nothing of vbd is on
 * the program's class path and loading it costs what loading JDK classes costs. Options come
 * from {@code -Dvbd.options}, in the agent's format ({@link AgentOptions}).
 */
public final class ImageRewriting implements VbdRuntime.ClassDefinitions {
    /** The system property that carries the options to the image, in the agent's format. */
    public static final String OPTIONS_PROPERTY = "vbd.options";

    private final LoadTimeRewriter rewriter;

    private ImageRewriting(LoadTimeRewriter rewriter) {
        this.rewriter = rewriter;
    }

    static {
        start();
    }

    private static void start() {
        AgentOptions options;
        Policy policy;
        try {
            options = AgentOptions.parse(System.getProperty(OPTIONS_PROPERTY));
            policy = options.relaxed() == null ? Policy.defaults() : new Policy(RelaxedConfig.load(options.relaxed()));
        } catch (RelaxedConfigException e) {
            LoadTimeRewriter.die("bad relaxed config: " + e.getMessage());
            return;
        } catch (IllegalArgumentException e) {
            LoadTimeRewriter.die("bad -D" + OPTIONS_PROPERTY + ": " + e.getMessage());
            return;
        }
        if (options.verifyReport() != null) {
            LoadTimeRewriter.die("the verifier needs vbd's agent: run the program through 'vbd verify'");
            return;
        }
        RewriteStats stats = new RewriteStats();
        DeclaredModifiers declared = new DeclaredModifiers();
        declared.install();
        LoadTimeRewriter rewriter = new LoadTimeRewriter(policy, options.skipUnrewritable(), stats, declared, true);
        new HiddenClasses(rewriter, stats, false).install();
        VbdRuntime.classDefinitions(new ImageRewriting(rewriter));
    }

    @Override
    public byte[] rewrite(ClassLoader loader, String name, byte[] bytes) {
        return rewriter.rewrite(loader, name, bytes);
    }
}
