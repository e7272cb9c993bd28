package dev.vbd.agent;

import dev.vbd.core.Conventions;
import dev.vbd.core.policy.Policy;
import dev.vbd.core.rewrite.ClassRewriter;
import dev.vbd.core.rewrite.RewriteException;
import dev.vbd.core.rewrite.RewriteResult;

import java.lang.instrument.ClassFileTransformer;
import java.nio.charset.StandardCharsets;
import java.security.ProtectionDomain;
import java.util.Map;
import java.util.WeakHashMap;

/** Rewrites every class defined after the agent starts. */
final class VbdTransformer implements ClassFileTransformer {
    static final int EXIT_UNREWRITABLE = 125;
    private static final byte[] MARKER = Conventions.MARKER_DESC.getBytes(StandardCharsets.UTF_8);

    private final Policy policy;
    private final boolean skipUnrewritable;
    private final RewriteStats stats;
    /** Weak keys; a rewriter holds its loader only weakly, so an unused loader can still be collected. */
    private final Map<ClassLoader, ClassRewriter> rewriters = new WeakHashMap<>();
    private ClassRewriter bootRewriter;

    VbdTransformer(Policy policy, boolean skipUnrewritable, RewriteStats stats) {
        this.policy = policy;
        this.skipUnrewritable = skipUnrewritable;
        this.stats = stats;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
                            ProtectionDomain domain, byte[] bytes) {
        if (redefined != null || bytes == null) return null;
        if (containsMarker(bytes)) {
            stats.alreadyRewritten.incrementAndGet();
            return null;
        }
        try {
            RewriteResult r = rewriterFor(loader).rewrite(bytes, skipUnrewritable);
            switch (r.status()) {
                case REWRITTEN:
                    stats.rewritten.incrementAndGet();
                    r.unfenced().forEach((method, why) -> {
                        String where = r.className() + "." + method;
                        stats.failed.put(where, where + ": " + why);
                        System.err.println("vbd: warning: method left unfenced (its array, bulk and weak-mode accesses"
                                + " are not sequentially consistent): " + where + " " + why);
                    });
                    return r.bytes();
                case ALREADY_REWRITTEN:
                    stats.alreadyRewritten.incrementAndGet();
                    return null;
                default:
                    stats.excluded.incrementAndGet();
                    return null;
            }
        } catch (RewriteException e) {
            return fail(e.className(), e.getMessage());
        } catch (Throwable t) {
            return fail(className, className + ": " + t);
        }
    }

    private byte[] fail(String className, String message) {
        if (skipUnrewritable) {
            stats.failed.put(className, message);
            System.err.println("vbd: warning: class left unrewritten (not sequentially consistent): " + message);
            return null;
        }
        System.err.println("vbd: cannot rewrite class " + message);
        System.err.println("vbd: stopping; --skip-unrewritable runs on with such classes uncovered and reported");
        System.err.flush();
        Runtime.getRuntime().halt(EXIT_UNREWRITABLE);
        return null;
    }

    private synchronized ClassRewriter rewriterFor(ClassLoader loader) {
        if (loader == null) {
            if (bootRewriter == null) bootRewriter = new ClassRewriter(policy, new LoaderBytesSource(null));
            return bootRewriter;
        }
        return rewriters.computeIfAbsent(loader, l -> new ClassRewriter(policy, new LoaderBytesSource(l)));
    }

    static boolean containsMarker(byte[] bytes) {
        outer:
        for (int i = 0, n = bytes.length - MARKER.length; i <= n; i++) {
            for (int j = 0; j < MARKER.length; j++) {
                if (bytes[i + j] != MARKER[j]) continue outer;
            }
            return true;
        }
        return false;
    }
}
