package dev.vbd.cli.bisect;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SearchTest {
    private static List<Integer> candidates(int n) {
        return IntStream.range(0, n).boxed().toList();
    }

    /** The failure vanishes when every culprit is SC. */
    private static Search.Oracle<Integer> needsAll(Set<Integer> culprits) {
        return sc -> sc.containsAll(culprits);
    }

    @Test
    void oneCulpritAmongAThousandTakesAboutLog2Trials() throws Exception {
        for (int culprit : List.of(0, 1, 499, 998, 999)) {
            Search<Integer> s = new Search<>(needsAll(Set.of(culprit)));
            assertEquals(List.of(culprit), s.culprits(candidates(1000)));
            assertTrue(s.trials() <= 12, culprit + ": " + s.trials() + " trials");
        }
    }

    @Test
    void everyCulpritOfASetIsFoundAndNothingElse() throws Exception {
        for (Set<Integer> culprits : List.of(Set.of(3, 700), Set.of(0, 999), Set.of(10, 11, 12), Set.of(5, 250, 500, 750))) {
            Search<Integer> s = new Search<>(needsAll(culprits));
            assertEquals(culprits, new HashSet<>(s.culprits(candidates(1000))));
            assertTrue(s.trials() <= Search.expectedTrials(1000, culprits.size()) + culprits.size(),
                    culprits + ": " + s.trials() + " trials");
        }
    }

    @Test
    void whereEitherOfTwoFixesIsEnoughOneOfThemIsNamed() throws Exception {
        // a flag read in two places: making either place SC is enough (an arrays rule per method)
        Search<Integer> s = new Search<>(sc -> sc.contains(40) || sc.contains(60));
        List<Integer> found = s.culprits(candidates(100));
        assertEquals(1, found.size());
        assertTrue(found.get(0) == 40 || found.get(0) == 60, found.toString());
    }

    @Test
    void eachCulpritIsNecessaryOnAnyMonotoneOracle() throws Exception {
        // vanishes once at least three of the first ten are SC, or 77 is
        Search.Oracle<Integer> oracle = sc -> sc.contains(77) || sc.stream().filter(i -> i < 10).count() >= 3;
        List<Integer> found = new Search<>(oracle).culprits(candidates(100));
        assertTrue(oracle.vanishes(found), found.toString());
        for (Integer k : found) {
            List<Integer> less = new ArrayList<>(found);
            less.remove(k);
            assertTrue(!oracle.vanishes(less), "without " + k + " it still vanishes: " + found);
        }
    }

    @Test
    void aSingleCandidateIsTheCulpritWithoutATrial() throws Exception {
        Search<Integer> s = new Search<>(needsAll(Set.of(0)));
        assertEquals(List.of(0), s.culprits(candidates(1)));
        assertEquals(0, s.trials());
    }
}
