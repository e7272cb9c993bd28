package dev.vbd.agent;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** What the agent did during a run; read by the verifier's report. */
public final class RewriteStats {
    public final AtomicInteger rewritten = new AtomicInteger();
    public final AtomicInteger alreadyRewritten = new AtomicInteger();
    public final AtomicInteger excluded = new AtomicInteger();
    /**
     * Hidden classes vbd rewrote on their way to the JVM; of the JDK's method-handle plumbing, those
     * whose array element accesses alone it fenced, and those it left as generated (no such access).
     */
    public final AtomicInteger hiddenRewritten = new AtomicInteger();
    public final AtomicInteger hiddenArraysFenced = new AtomicInteger();
    public final AtomicInteger hiddenLeft = new AtomicInteger();
    /**
     * Classes that could not be rewritten and ran unchanged, and methods ({@code class.name(desc)})
     * left unfenced in classes otherwise rewritten (only with skipUnrewritable).
     */
    public final Map<String, String> failed = Collections.synchronizedMap(new LinkedHashMap<>());
    /** Classes defined before the agent started (dotted names): fields as compiled, bodies fenced. */
    public final List<String> early = new CopyOnWriteArrayList<>();
    /** Those of them whose bodies could not be fenced either, with the reason: they run as compiled. */
    public final Map<String, String> earlyUnfenced = Collections.synchronizedMap(new LinkedHashMap<>());
}
