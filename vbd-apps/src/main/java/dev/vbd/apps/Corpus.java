package dev.vbd.apps;

import java.util.Random;

/**
 * Deterministic pseudo-random text: a vocabulary of pronounceable made-up words, drawn with a
 * Zipf-like skew so that some words are common and most are rare, like real text. The same seed
 * gives the same words on every JVM, since only {@link Random} and integer arithmetic are used.
 */
final class Corpus {

    private static final String[] ONSETS = {"b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r",
            "s", "t", "v", "w", "z", "br", "ch", "dr", "fl", "gr", "kr", "pl", "qu", "sh", "st", "th", "tr"};
    private static final String[] VOWELS = {"a", "e", "i", "o", "u", "ai", "ea", "io", "ou", "y"};

    final String[] vocabulary;
    /** cumulative weights of a Zipf(1) distribution over the vocabulary, scaled to long */
    private final long[] cumulative;

    Corpus(int vocabularySize, long seed) {
        Random r = new Random(seed);
        java.util.LinkedHashSet<String> words = new java.util.LinkedHashSet<>();
        while (words.size() < vocabularySize) {
            int syllables = 1 + r.nextInt(3);
            StringBuilder w = new StringBuilder();
            for (int s = 0; s < syllables; s++) {
                w.append(ONSETS[r.nextInt(ONSETS.length)]).append(VOWELS[r.nextInt(VOWELS.length)]);
            }
            if (r.nextInt(3) == 0) w.append(ONSETS[r.nextInt(18)]);
            words.add(w.toString());
        }
        vocabulary = words.toArray(new String[0]);
        cumulative = new long[vocabularySize];
        long total = 0;
        for (int i = 0; i < vocabularySize; i++) {
            total += 1_000_000_000L / (i + 1);
            cumulative[i] = total;
        }
    }

    /** A word index drawn with the Zipf-like skew. */
    int nextWord(Random r) {
        long x = (long) (r.nextDouble() * cumulative[cumulative.length - 1]);
        int lo = 0, hi = cumulative.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cumulative[mid] > x) hi = mid; else lo = mid + 1;
        }
        return lo;
    }

    /** Document {@code id} of the corpus: its word indexes, from its own seed so documents can be made in any order. */
    int[] document(long seed, int id, int minWords, int maxWords) {
        Random r = new Random(seed * 31 + id);
        int[] doc = new int[minWords + r.nextInt(maxWords - minWords + 1)];
        for (int i = 0; i < doc.length; i++) doc[i] = nextWord(r);
        return doc;
    }

    String text(int[] doc) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < doc.length; i++) {
            if (i > 0) b.append(' ');
            b.append(vocabulary[doc[i]]);
        }
        return b.toString();
    }
}
