package dev.vbd.core.verify;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a verification found: coverage counts, the accesses that are not SC ({@link #nonSc()}
 * must be 0 for a vbd run), and the holes a bytecode check cannot close (hidden classes,
 * intrinsics). {@link #toJson()} is the report's documented JSON form (docs/verifier.md).
 */
public final class VerifyReport {
    /** Lists in the JSON form stop at this many entries; the counts stay exact. */
    public static final int JSON_LIST_LIMIT = 5000;

    /** A class vbd did not rewrite and that runs as compiled. */
    public record Uncovered(String className, String loader, String reason) {}

    /** A non-relaxed method HotSpot may replace by an intrinsic, so that its (checked) bytecode may not be what runs. */
    public record Intrinsic(String className, String method, int sites) {}

    /** A method of a rewritten class left as compiled: fencing it would outgrow the JVM's code limit. */
    public record Unfenced(String className, String loader, String method) {}

    int classes;
    int inspected;
    int rewritten;
    int excluded;
    int hidden;
    int scSites;
    int relaxedSites;
    int localArrayAccesses;
    /** Constructor accesses to their own object before it can have left them (fenced fields). */
    int unpublishedAccesses;
    /** SC sites among {@link #scSites} fenced only when the object is not the current thread's (speculative fields). */
    int speculativeAccesses;
    int unresolvedFields;
    /** What was checked: sequential consistency, or safe construction ({@code --mode safe-construction}). */
    String mode = "sc";
    /** Under safe construction: the constructor points checked (each return or leak of {@code this} after a store). */
    int constructionPoints;
    /** Under safe construction: constructors relaxed, so left without their fences. */
    int relaxedConstructors;
    final List<Finding> findings = new ArrayList<>();
    final List<Uncovered> uncovered = new ArrayList<>();
    /** Rewritten classes whose bytes could not be read back, so not checked. */
    final List<Uncovered> uninspected = new ArrayList<>();
    final List<Intrinsic> intrinsics = new ArrayList<>();
    final List<Unfenced> unfenced = new ArrayList<>();
    final List<String> hiddenClasses = new ArrayList<>();
    /** The program's native methods ({@code class.name(desc)}): what they do to the heap no bytecode check sees. */
    final List<String> natives = new ArrayList<>();
    final Map<String, Integer> hiddenReasons = new TreeMap<>();
    final Map<String, Integer> exclusions = new TreeMap<>();
    final Map<String, Integer> unresolved = new TreeMap<>();
    final Map<String, Object> extra = new LinkedHashMap<>();

    /** Classes seen: those inspected plus those that could not be (hidden classes). */
    public int classes() { return classes; }
    public int inspected() { return inspected; }
    /** Classes carrying vbd's marker. */
    public int rewritten() { return rewritten; }
    public int excluded() { return excluded; }
    /** Classes inspected that vbd did not rewrite nor deliberately exclude; hidden classes are counted apart. */
    public int uncovered() { return uncovered.size(); }
    public int hidden() { return hidden; }
    /** Rewritten (by their marker) but not checked: the JVM would not hand their bytes back. */
    public int uninspected() { return uninspected.size(); }
    /** Heap accesses that are neither SC nor relaxed. */
    public int nonSc() { return findings.size(); }
    public int scSites() { return scSites; }
    public int relaxedSites() { return relaxedSites; }
    public int localArrayAccesses() { return localArrayAccesses; }
    public int unpublishedAccesses() { return unpublishedAccesses; }
    public int speculativeAccesses() { return speculativeAccesses; }
    public int unresolvedFields() { return unresolvedFields; }
    /** {@code sc} or {@code safe-construction}: which guarantee the findings are measured against. */
    public String mode() { return mode; }
    public int constructionPoints() { return constructionPoints; }
    public int relaxedConstructors() { return relaxedConstructors; }
    public List<Finding> findings() { return List.copyOf(findings); }
    public List<Uncovered> uncoveredClasses() { return List.copyOf(uncovered); }
    public List<Intrinsic> intrinsics() { return List.copyOf(intrinsics); }
    public List<Unfenced> unfencedMethods() { return List.copyOf(unfenced); }

    /**
     * A hidden class that could not be inspected (never passed to agents, not retransformable) and
     * that did not pass through vbd's rewrite on its way to the JVM, and why.
     */
    public void addHidden(String className, String reason) {
        classes++;
        hidden++;
        hiddenClasses.add(className);
        hiddenReasons.merge(reason, 1, Integer::sum);
    }

    /**
     * A class seen but not inspected (not modifiable, or its bytes could not be read back). With
     * vbd's marker known it counts as rewritten though unchecked; without, as uncovered.
     */
    public void addUninspectable(String className, String loader, String reason, boolean marked) {
        classes++;
        if (marked) {
            rewritten++;
            uninspected.add(new Uncovered(className.replace('/', '.'), loader, reason));
        } else {
            uncovered.add(new Uncovered(className.replace('/', '.'), loader, reason));
        }
    }

    /**
     * A class seen and left unchecked because vbd leaves it alone by where it comes from (its own
     * classes beside a program), which only the caller that saw the class load can tell.
     */
    public void addExcluded(String reason) {
        classes++;
        excluded++;
        exclusions.merge(reason, 1, Integer::sum);
    }

    /** Adds another report's counts and lists to this one (the verifier checks classes in parallel). */
    void absorb(VerifyReport o) {
        classes += o.classes;
        inspected += o.inspected;
        rewritten += o.rewritten;
        excluded += o.excluded;
        hidden += o.hidden;
        scSites += o.scSites;
        relaxedSites += o.relaxedSites;
        localArrayAccesses += o.localArrayAccesses;
        unpublishedAccesses += o.unpublishedAccesses;
        speculativeAccesses += o.speculativeAccesses;
        unresolvedFields += o.unresolvedFields;
        constructionPoints += o.constructionPoints;
        relaxedConstructors += o.relaxedConstructors;
        findings.addAll(o.findings);
        uncovered.addAll(o.uncovered);
        uninspected.addAll(o.uninspected);
        intrinsics.addAll(o.intrinsics);
        unfenced.addAll(o.unfenced);
        hiddenClasses.addAll(o.hiddenClasses);
        natives.addAll(o.natives);
        o.hiddenReasons.forEach((k, v) -> hiddenReasons.merge(k, v, Integer::sum));
        o.exclusions.forEach((k, v) -> exclusions.merge(k, v, Integer::sum));
        o.unresolved.forEach((k, v) -> unresolved.merge(k, v, Integer::sum));
    }

    /** A finding made outside the bytecode checks (paths the prepared JDK recorded at run time). */
    public void addFinding(Finding f) {
        findings.add(f);
    }

    /** Additional top-level JSON fields (mode, JVM, the agent's own counts). */
    public void put(String key, Object jsonValue) {
        extra.put(key, jsonValue);
    }

    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("guarantee", mode);
        m.put("classes", classes);
        m.put("inspected", inspected);
        m.put("rewritten", rewritten);
        m.put("excluded", excluded);
        m.put("uncovered", uncovered.size());
        m.put("hidden", hidden);
        m.put("uninspected", uninspected.size());
        m.put("nonSc", findings.size());
        m.put("scSites", scSites);
        m.put("relaxedSites", relaxedSites);
        m.put("localArrayAccesses", localArrayAccesses);
        m.put("unpublishedAccesses", unpublishedAccesses);
        m.put("speculativeAccesses", speculativeAccesses);
        m.put("unresolvedFields", unresolvedFields);
        if (!mode.equals("sc")) {
            m.put("constructionPoints", constructionPoints);
            m.put("relaxedConstructors", relaxedConstructors);
        }
        m.put("intrinsicMethods", intrinsics.size());
        m.put("unfenced", unfenced.size());
        m.putAll(extra);
        List<Object> f = new ArrayList<>();
        for (Finding x : limit(findings)) f.add(x.toJson());
        m.put("findings", f);
        m.put("findingsOmitted", Math.max(0, findings.size() - JSON_LIST_LIMIT));
        m.put("uncoveredClasses", classList(uncovered));
        m.put("uninspectedClasses", classList(uninspected));
        m.put("excludedReasons", new LinkedHashMap<>(exclusions));
        m.put("hiddenClasses", new ArrayList<>(limit(hiddenClasses)));
        m.put("hiddenReasons", new LinkedHashMap<>(hiddenReasons));
        m.put("nativeMethods", new ArrayList<>(limit(natives)));
        List<Object> in = new ArrayList<>();
        for (Intrinsic x : limit(intrinsics)) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("class", x.className());
            e.put("method", x.method());
            e.put("sites", x.sites());
            in.add(e);
        }
        m.put("intrinsics", in);
        List<Object> uf = new ArrayList<>();
        for (Unfenced x : limit(unfenced)) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("class", x.className());
            e.put("loader", x.loader());
            e.put("method", x.method());
            uf.add(e);
        }
        m.put("unfencedMethods", uf);
        m.put("unresolvedOwners", new LinkedHashMap<>(limitMap(unresolved)));
        return m;
    }

    private static List<Object> classList(List<Uncovered> list) {
        List<Object> u = new ArrayList<>();
        for (Uncovered x : limit(list)) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("class", x.className());
            e.put("loader", x.loader());
            e.put("reason", x.reason());
            u.add(e);
        }
        return u;
    }

    private static <T> List<T> limit(List<T> l) {
        return l.size() <= JSON_LIST_LIMIT ? l : l.subList(0, JSON_LIST_LIMIT);
    }

    private static Map<String, Integer> limitMap(Map<String, Integer> m) {
        if (m.size() <= JSON_LIST_LIMIT) return m;
        Map<String, Integer> out = new LinkedHashMap<>();
        for (Map.Entry<String, Integer> e : m.entrySet()) {
            if (out.size() == JSON_LIST_LIMIT) break;
            out.put(e.getKey(), e.getValue());
        }
        return out;
    }
}
