package dev.vbd.agent;

import dev.vbd.core.rewrite.RewriteException;
import dev.vbd.core.rewrite.RewriteResult;
import org.objectweb.asm.ClassReader;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.VbdRuntime;
import java.util.function.BiFunction;

/**
 * The rewrite of hidden classes. The JVM shows them to no agent, so the prepared JDK hands each
 * one here from its only define path ({@code VbdRuntime.rewriteHidden}), with the lookup class that
 * defines it: lambda proxies, framework-spun classes, the JDK's own.
 *
 * <p>The classes {@code java.lang.invoke} generates for itself ({@code LambdaForm}s and the like)
 * get their array element accesses fenced and nothing else ({@link dev.vbd.core.rewrite.GeneratedArrayFences}): they
 * reach fields with the fields' own, already volatile, modes and methods through their rewritten
 * or twinned bodies, so the whole rewrite would only slow every method handle; but spreaders,
 * collectors, element getters and setters, loops and table switches load and store elements with
 * the plain instructions. Those with no element access are defined as generated. Hidden classes
 * defined while this thread is already rewriting one (vbd's own lambdas) pass through too: they
 * belong to vbd, as do those a class of vbd's defines, known by the lookup class's origin:
 * java.base in a runtime image, the agent's jar beside a program ({@link OwnClasses}), never by
 * its name alone.
 */
final class HiddenClasses implements BiFunction<Class<?>, byte[], byte[]> {
    private static final String JDK_INVOKE = "java.lang.invoke.";
    /** Where a runtime image keeps vbd's own classes ({@link ImageRewriting}). */
    private static final String IMAGE_OWN = "jdk.internal.misc.Vbd_";

    private final LoadTimeRewriter transformer;
    /** The agent's own classes, or null in a runtime image, where vbd's classes are java.base's. */
    private final OwnClasses own;
    private final RewriteStats stats;
    /** With the verifier on: what each rewritten hidden class became, for the walk at exit. */
    private final List<Rewritten> kept;
    /** With the verifier on: why each hidden class left as it was was left, by the name in its class file. */
    private final Map<String, String> left;

    static final String BEFORE_VBD = "defined before vbd started (the JVM's start-up)";
    static final String GENERATED = "java.lang.invoke's own generated code without array element accesses, left as generated";
    /**
     * {@code -Dvbd.generatedArrays=unfenced} leaves the element accesses of java.lang.invoke's
     * generated code as generated, not sequentially consistent: for the verifier's own tests.
     */
    static final String GENERATED_ARRAYS_PROPERTY = "vbd.generatedArrays";
    private final boolean fenceGeneratedArrays = !"unfenced".equals(System.getProperty(GENERATED_ARRAYS_PROPERTY));
    static final String OWN = "defined while vbd rewrote another class on the same thread (vbd's own lambdas)";

    record Rewritten(ClassLoader loader, String name, byte[] bytes) {}

    HiddenClasses(LoadTimeRewriter transformer, OwnClasses own, RewriteStats stats, boolean keep) {
        this.transformer = transformer;
        this.own = own;
        this.stats = stats;
        this.kept = keep ? new ArrayList<>() : null;
        this.left = keep ? new ConcurrentHashMap<>() : null;
    }

    @Override
    public byte[] apply(Class<?> lookup, byte[] bytes) {
        if (CircularityGuard.inside(CircularityGuard.Work.REWRITING_HIDDEN)) return leave(bytes, OWN);
        if (ownLookup(lookup)) return leave(bytes, OWN);
        if (lookup.getName().startsWith(JDK_INVOKE)) return generated(lookup, bytes);
        CircularityGuard.enter(CircularityGuard.Work.REWRITING_HIDDEN);
        try {
            ClassLoader loader = lookup.getClassLoader();
            RewriteResult r = transformer.rewriterFor(loader).rewrite(bytes);
            if (r.status() != RewriteResult.Status.REWRITTEN) return leave(bytes, r.reason());
            stats.hiddenRewritten.incrementAndGet();
            if (kept != null) {
                synchronized (kept) {
                    kept.add(new Rewritten(loader, r.className(), r.bytes()));
                }
            }
            return r.bytes();
        } catch (RewriteException e) {
            return transformer.fail(e.className() + " (hidden, defined by " + lookup.getName() + ")", e.getMessage());
        } catch (Throwable t) {
            return transformer.fail(lookup.getName() + " (a hidden class it defines)", String.valueOf(t));
        } finally {
            CircularityGuard.exit(CircularityGuard.Work.REWRITING_HIDDEN);
        }
    }

    /**
     * java.lang.invoke's own code: its array element accesses fenced, the rest as generated. The
     * class kept for the verifier is the one defined, fenced or (switched off) not.
     */
    private byte[] generated(Class<?> lookup, byte[] bytes) {
        if (!fenceGeneratedArrays && kept == null) {
            stats.hiddenLeft.incrementAndGet();
            return null;
        }
        CircularityGuard.enter(CircularityGuard.Work.REWRITING_HIDDEN);
        try {
            byte[] fenced = transformer.fenceGenerated(lookup.getName(), bytes);
            if (fenced == null) {
                stats.hiddenLeft.incrementAndGet();
                return leave(bytes, GENERATED);
            }
            byte[] defined = fenceGeneratedArrays ? fenced : bytes;
            if (fenceGeneratedArrays) stats.hiddenArraysFenced.incrementAndGet();
            if (kept != null) {
                synchronized (kept) {
                    kept.add(new Rewritten(lookup.getClassLoader(), new ClassReader(bytes).getClassName(), defined));
                }
            }
            return fenceGeneratedArrays ? fenced : null;
        } catch (Throwable t) {
            String what = lookup.getName() + " (a hidden class it generates)";
            return transformer.fail(what, what + ": " + t);
        } finally {
            CircularityGuard.exit(CircularityGuard.Work.REWRITING_HIDDEN);
        }
    }

    /** Whether the lookup class is vbd's: relocated into java.base in an image, or of the agent's jar. */
    private boolean ownLookup(Class<?> lookup) {
        if (lookup.getModule() == Object.class.getModule() && lookup.getName().startsWith(IMAGE_OWN)) return true;
        return own != null && own.own(lookup);
    }

    private byte[] leave(byte[] bytes, String why) {
        if (left != null) {
            try {
                left.put(new ClassReader(bytes).getClassName().replace('/', '.'), why);
            } catch (RuntimeException e) {
                // the JVM will reject the class file itself
            }
        }
        return null;
    }

    /** Why a hidden class that vbd did not rewrite was left as it was (verify mode only). */
    String whyLeft(String nameInClassFile) {
        return left.getOrDefault(nameInClassFile, BEFORE_VBD);
    }

    /** The hidden classes rewritten so far (verify mode only). */
    List<Rewritten> rewritten() {
        synchronized (kept) {
            return new ArrayList<>(kept);
        }
    }

    /** Hands this rewriter to the prepared JDK; false if something else already holds the hook. */
    boolean install() {
        return VbdRuntime.hiddenClassRewriter(this);
    }
}
