package dev.vbd.cli.bisect;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The smallest set of candidates whose SC makes a failure vanish, every other candidate relaxed.
 * Relaxing less never makes a failure more likely (SC allows fewer outcomes than the Java memory
 * model), so whether the failure vanishes is monotone in the set kept SC; on that the search finds
 * one culprit at a time by binary search over a prefix of the candidates: the shortest prefix that,
 * with the culprits found so far, makes the failure vanish ends in a culprit, and the next one lies
 * before it. k culprits among n take about k log2(n) trials, each element of the answer necessary:
 * without any one of them, the failure shows again (QuickXplain's argument, Junker 2004).
 */
public final class Search<T> {
    /** A trial: whether the failure vanishes with exactly {@code sc} SC and the other candidates relaxed. */
    public interface Oracle<T> {
        boolean vanishes(List<T> sc) throws IOException;
    }

    private final Oracle<T> oracle;
    private int trials;

    public Search(Oracle<T> oracle) {
        this.oracle = oracle;
    }

    /**
     * The culprits among {@code candidates}, given that the failure shows with none of them SC and
     * vanishes with all of them SC (the caller checked both).
     */
    public List<T> culprits(List<T> candidates) throws IOException {
        List<T> found = new ArrayList<>();
        List<T> rest = new ArrayList<>(candidates);
        while (true) {
            // the shortest prefix of rest that, with what was found, makes the failure vanish; the
            // whole of rest does (the caller's check, then each round's own finding)
            int lo = 0;
            int hi = rest.size() - 1;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (vanishes(found, rest.subList(0, mid + 1))) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            found.add(rest.get(lo));
            rest = new ArrayList<>(rest.subList(0, lo));
            if (rest.isEmpty() || vanishes(found, List.of())) return found;
        }
    }

    private boolean vanishes(List<T> found, List<T> more) throws IOException {
        List<T> sc = new ArrayList<>(found);
        sc.addAll(more);
        trials++;
        return oracle.vanishes(sc);
    }

    /** Trials run so far. */
    public int trials() {
        return trials;
    }

    /** About how many trials finding {@code culprits} among {@code n} candidates takes, for progress. */
    public static int expectedTrials(int n, int culprits) {
        int log = 32 - Integer.numberOfLeadingZeros(Math.max(1, n));
        return culprits * (log + 1);
    }
}
