package dev.vbd.agent;

import dev.vbd.core.layout.Layout;
import dev.vbd.core.policy.Policy;
import dev.vbd.core.policy.RelaxedConfig;
import dev.vbd.core.policy.RelaxedConfigException;
import dev.vbd.core.rewrite.FieldMode;
import dev.vbd.core.rewrite.RewriteStore;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.VbdRuntime;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;

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
 *
 * <p>Rewrites are kept between runs ({@link RewriteStore}) beside the image in vbd's cache, one
 * store per relaxed config: a program started again takes the classes it loaded before from
 * there. {@code -Dvbd.store=off} rewrites everything anew; {@code -Dvbd.store=DIR} keeps them in
 * {@code DIR} instead.
 */
public final class ImageRewriting implements VbdRuntime.ClassDefinitions {
    /** The system property that carries the options to the image, in the agent's format. */
    public static final String OPTIONS_PROPERTY = "vbd.options";
    /** The system property that moves ({@code DIR}) or switches off ({@code off}) the store of rewrites. */
    public static final String STORE_PROPERTY = "vbd.store";

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
        File jdkDir = new File(System.getProperty("java.home")).getAbsoluteFile().getParentFile();
        FieldMode fields = LoadTimeRewriter.programFieldsOrDie(jdkDir, options.fields());
        if (fields == null) return;
        RewriteStats stats = new RewriteStats();
        DeclaredModifiers declared = new DeclaredModifiers();
        declared.install();
        LoadTimeRewriter rewriter = new LoadTimeRewriter(policy, options.skipUnrewritable(), fields, stats, declared, true);
        rewriter.optimise(options.optimise());
        Layout layout = LoadTimeRewriter.layoutOrDie(options.layout());
        if (layout == null) return;
        rewriter.layout(layout);
        rewriter.store(store(options.relaxed()));
        rewriter.jdkFencedFields(jdkDir);
        new HiddenClasses(rewriter, null, stats, false).install();
        VbdRuntime.classDefinitions(new ImageRewriting(rewriter));
    }

    /**
     * The store for this image and relaxed config, or null. Kept rewrites are valid for one build
     * of vbd and one config: a store lives in the prepared JDK's directory (or, with a {@code DIR},
     * under that directory's name), and a config's store under two checksums of its text (CRC-32
     * and CRC-32C) and its length.
     */
    private static RewriteStore store(Path relaxed) {
        String where = System.getProperty(STORE_PROPERTY);
        if ("off".equals(where)) return null;
        File entry = new File(System.getProperty("java.home")).getAbsoluteFile().getParentFile();
        if (entry == null) return null;
        File root = where == null || where.isEmpty() ? new File(entry, "rewrites") : new File(where, entry.getName());
        if (relaxed == null) return RewriteStore.inBackground(new File(root, "default"));
        byte[] config;
        try (FileInputStream in = new FileInputStream(relaxed.toString())) {
            config = in.readAllBytes();
        } catch (IOException e) {
            return null;
        }
        CRC32 crc = new CRC32();
        crc.update(config, 0, config.length);
        CRC32C crcC = new CRC32C();
        crcC.update(config, 0, config.length);
        return RewriteStore.inBackground(new File(root, "relaxed-" + Long.toHexString(crc.getValue()) + "-"
                + Long.toHexString(crcC.getValue()) + "-" + config.length));
    }

    @Override
    public byte[] rewrite(ClassLoader loader, String name, byte[] bytes) {
        return rewriter.rewrite(loader, name, bytes);
    }
}
