package dev.vbd.apps;

import java.util.List;

/**
 * A workload with a data race planted on purpose, for checking that {@code vbd advise} never relaxes
 * racy code. Each job counts letter pairs in a text of its own into a table of its own ({@link
 * Table#add}: hot, and confined to one thread, so safe to relax); every pair also bumps a progress
 * counter that all jobs share with no lock ({@link Progress#tick}: hot too, and racy), which a
 * watcher thread reads now and then. The result printed is the tables' sum, the same on every run; the counter,
 * which the race makes unreliable without SC, is never printed.
 */
public final class PlantedRace extends Workload {
    private static final int JOBS = 8;

    /** Shared by every job, written without a lock: the planted race. */
    static final class Progress {
        long pairs;
        int last;
        long sum;

        void tick(String word) {
            for (int i = 1; i < word.length(); i++) {
                pairs++;
                last = word.charAt(i - 1) * 26 + word.charAt(i);
                sum += last;
            }
        }
    }

    /** One job's own counts. */
    static final class Table {
        final int[] counts = new int[26 * 26];
        final int[] firsts = new int[26];
        final int[] seconds = new int[26];

        void add(String word) {
            for (int i = 1; i < word.length(); i++) {
                int a = word.charAt(i - 1) - 'a';
                int b = word.charAt(i) - 'a';
                counts[a * 26 + b]++;
                firsts[a]++;
                seconds[b]++;
            }
        }
    }

    private final Progress progress = new Progress();
    private final Corpus corpus = new Corpus(2000, 17);
    private volatile boolean done;

    public static void main(String[] args) {
        new PlantedRace().main("planted-race", args, 400);
    }

    @Override
    protected void setUp(Options options) {
        Thread watcher = new Thread(() -> {
            long seen = 0;
            while (!done) {
                seen = Math.max(seen, progress.pairs);
                java.util.concurrent.locks.LockSupport.parkNanos(50_000); // the jobs keep the CPUs
            }
        }, "progress-watcher");
        watcher.setDaemon(true);
        watcher.start();
    }

    @Override
    protected void tearDown() {
        done = true;
    }

    @Override
    protected String iteration(Options options, int index) throws Exception {
        List<long[]> sums = inParallel(options.threads(), JOBS, job -> {
            java.util.Random random = new java.util.Random(job);
            Table table = new Table();
            for (int w = 0; w < options.size() * 1000; w++) {
                String word = corpus.vocabulary[corpus.nextWord(random)];
                table.add(word);
                progress.tick(word);
            }
            long[] s = new long[2];
            for (int i = 0; i < table.counts.length; i++) {
                s[0] += table.counts[i];
                s[1] += (long) table.counts[i] * (i + 1);
            }
            for (int i = 0; i < 26; i++) s[1] += (long) (table.firsts[i] - table.seconds[i]) * i;
            return s;
        });
        long pairs = 0;
        long checksum = 0;
        for (long[] s : sums) {
            pairs += s[0];
            checksum += s[1];
        }
        return "letter pairs " + pairs + ", checksum " + checksum + "\n";
    }
}
