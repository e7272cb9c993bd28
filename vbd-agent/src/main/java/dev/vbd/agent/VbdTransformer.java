package dev.vbd.agent;

import dev.vbd.core.Conventions;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import dev.vbd.core.policy.Policy;
import dev.vbd.core.rewrite.ClassRewriter;
import dev.vbd.core.rewrite.FieldOracle;
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
    private final DeclaredModifiers declared;
    /** Weak keys; a rewriter holds its loader only weakly, so an unused loader can still be collected. */
    private final Map<ClassLoader, ClassRewriter> rewriters = new WeakHashMap<>();
    private ClassRewriter bootRewriter;
    private FieldOracle plainInJvm;

    VbdTransformer(Policy policy, boolean skipUnrewritable, RewriteStats stats, DeclaredModifiers declared) {
        this.policy = policy;
        this.skipUnrewritable = skipUnrewritable;
        this.stats = stats;
        this.declared = declared;
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
                    declared.record(loader, r.className(), r.flipped(), r.unfinal());
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

    byte[] fail(String className, String message) {
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

    /** Fields that stay plain in the JVM ({@link EarlyClasses}); call before adding this transformer. */
    synchronized void fenceFields(FieldOracle plain) {
        this.plainInJvm = plain;
    }

    synchronized ClassRewriter rewriterFor(ClassLoader loader) {
        if (loader == null) {
            if (bootRewriter == null) bootRewriter = new ClassRewriter(policy, new LoaderBytesSource(null), true).fenceFields(plainInJvm);
            return bootRewriter;
        }
        return rewriters.computeIfAbsent(loader, l -> new ClassRewriter(policy, new LoaderBytesSource(l),
                l == ClassLoader.getPlatformClassLoader()).fenceFields(plainInJvm));
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

    /**
     * Rewrites a small class of its own making, so that every class the rewrite needs is loaded
     * before this transformer is registered: were the first of them loaded through it (the agent's
     * jar sits on a custom system class loader's path), its own rewrite would need it while it is
     * still being loaded, a ClassCircularityError.
     */
    void warmUp() {
        rewriterFor(null).rewrite(warmUpClass());
    }

    /** A class with a field, an array store, a bulk copy and a weak-mode call: every visitor runs on it. */
    private static byte[] warmUpClass() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "vbd$WarmUp", null, "java/lang/Object", null);
        cw.visitField(0, "f", "I", null, null).visitEnd();
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_STATIC, "m", "([I[I)V", null, null);
        mv.visitCode();
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitInsn(Opcodes.ICONST_1);
        mv.visitInsn(Opcodes.IASTORE);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitInsn(Opcodes.ICONST_1);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/System", "arraycopy", "(Ljava/lang/Object;ILjava/lang/Object;II)V", false);
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

}
