package dev.vbd.agent;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** What the agent did during a run; read by the verifier's report. */
public final class RewriteStats {
    public final AtomicInteger rewritten = new AtomicInteger();
    public final AtomicInteger alreadyRewritten = new AtomicInteger();
    public final AtomicInteger excluded = new AtomicInteger();
    /**
     * Classes that could not be rewritten and ran unchanged, and methods ({@code class.name(desc)})
     * left unfenced in classes otherwise rewritten (only with skipUnrewritable).
     */
    public final Map<String, String> failed = Collections.synchronizedMap(new LinkedHashMap<>());
}
