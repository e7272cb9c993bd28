package dev.vbd.agent;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;

/** The agent's way in: every class defined after the agent starts, as the JVM hands it over. */
final class VbdTransformer implements ClassFileTransformer {
    private final LoadTimeRewriter rewriter;

    VbdTransformer(LoadTimeRewriter rewriter) {
        this.rewriter = rewriter;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
                            ProtectionDomain domain, byte[] bytes) {
        if (redefined != null || bytes == null) return null;
        return rewriter.rewrite(loader, className, bytes);
    }
}
