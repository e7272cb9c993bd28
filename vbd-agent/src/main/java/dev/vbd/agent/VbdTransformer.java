package dev.vbd.agent;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;

/** The agent's way in: every class defined after the agent starts, as the JVM hands it over. */
final class VbdTransformer implements ClassFileTransformer {
    private final LoadTimeRewriter rewriter;
    private final OwnClasses own;
    private final RewriteStats stats;

    VbdTransformer(LoadTimeRewriter rewriter, OwnClasses own, RewriteStats stats) {
        this.rewriter = rewriter;
        this.own = own;
        this.stats = stats;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
                            ProtectionDomain domain, byte[] bytes) {
        if (redefined != null || bytes == null) return null;
        if (own.own(loader, domain)) {
            stats.excluded.incrementAndGet();
            return null;
        }
        // the boot loader's unnamed module holds -Xbootclasspath/a: the program's classes
        return rewriter.rewrite(loader, className, bytes, loader == null && module != null && !module.isNamed());
    }
}
