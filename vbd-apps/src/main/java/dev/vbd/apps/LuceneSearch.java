package dev.vbd.apps;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.IntPredicate;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TopFieldDocs;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * Lucene: indexes a generated corpus into a {@link ByteBuffersDirectory} with several threads sharing
 * one IndexWriter, merges it to one segment, then runs a fixed set of parsed queries (terms, AND, OR,
 * NOT, phrases, prefixes) from several threads sharing one IndexSearcher, and prints each query's hit
 * count and top hits.
 *
 * <p>{@code --size} is the number of documents. Self-check: every query's hit count equals a brute-force
 * count over the generated documents, and every top hit matches the query by the brute-force test.
 * Hits are ordered by score, then by the stored document id, so that ties do not depend on the order in
 * which the threads added documents; the single merged segment makes the scoring code path the same
 * whatever the thread count.
 */
public final class LuceneSearch extends Workload {

    private static final long SEED = 0x10CE_2E5EL;
    private static final int QUERIES = 48;
    private static final int TOP = 5;

    public static void main(String[] args) {
        new LuceneSearch().main("lucene", args, 20_000);
    }

    /** A query in QueryParser syntax with its brute-force matcher over a document's words. */
    private record Spec(String text, java.util.function.Predicate<int[]> matches) {}

    @Override
    protected String iteration(Options options, int index) throws Exception {
        Corpus corpus = new Corpus(4000, SEED);
        int docs = options.size();
        int[][] words = new int[docs][];
        for (int id = 0; id < docs; id++) words[id] = corpus.document(SEED, id, 10, 80);

        ByteBuffersDirectory dir = new ByteBuffersDirectory();
        IndexWriterConfig config = new IndexWriterConfig(new StandardAnalyzer());
        config.setRAMBufferSizeMB(32);
        try (IndexWriter writer = new IndexWriter(dir, config)) {
            parallel(options.threads(), t -> {
                for (int id = t; id < docs; id += options.threads()) {
                    Document d = new Document();
                    d.add(new StoredField("id", id));
                    d.add(new NumericDocValuesField("id", id));
                    d.add(new TextField("body", corpus.text(words[id]), Field.Store.NO));
                    writer.addDocument(d);
                }
            });
            writer.forceMerge(1);
            writer.commit();
        }

        List<Spec> specs = queries(corpus);
        String[] results = new String[specs.size()];
        try (DirectoryReader reader = DirectoryReader.open(dir)) {
            check(reader.numDocs() == docs, "index holds " + reader.numDocs() + " documents, generated " + docs);
            check(reader.leaves().size() == 1, "one segment after forceMerge(1), found " + reader.leaves().size());
            IndexSearcher searcher = new IndexSearcher(reader);
            Sort sort = new Sort(SortField.FIELD_SCORE, new SortField("id", SortField.Type.INT));
            parallel(options.threads(), t -> {
                QueryParser parser = new QueryParser("body", new StandardAnalyzer());
                for (int q = t; q < specs.size(); q += options.threads()) {
                    Spec spec = specs.get(q);
                    Query query = parser.parse(spec.text());
                    int expected = 0;
                    for (int[] doc : words) if (spec.matches().test(doc)) expected++;
                    int count = searcher.count(query);
                    check(count == expected, "query [" + spec.text() + "] has " + count
                            + " hits, brute force counts " + expected);
                    TopFieldDocs top = searcher.search(query, TOP, sort, true);
                    StringBuilder b = new StringBuilder();
                    b.append(String.format(Locale.ROOT, "q%02d %-34s hits=%d", q, spec.text(), count));
                    for (ScoreDoc sd : top.scoreDocs) {
                        int id = searcher.storedFields().document(sd.doc).getField("id").numericValue().intValue();
                        check(spec.matches().test(words[id]), "top hit " + id + " of [" + spec.text() + "] matches it");
                        b.append(String.format(Locale.ROOT, " %d:%.4f", id, sd.score));
                    }
                    results[q] = b.append('\n').toString();
                }
            });
        }
        StringBuilder out = new StringBuilder();
        out.append("lucene: docs=").append(docs).append(" vocabulary=").append(corpus.vocabulary.length)
                .append(" queries=").append(specs.size()).append('\n');
        for (String r : results) out.append(r);
        return out.toString();
    }

    private static List<Spec> queries(Corpus corpus) {
        Random r = new Random(SEED + 1);
        String[] v = corpus.vocabulary;
        List<Spec> specs = new ArrayList<>();
        for (int q = 0; q < QUERIES; q++) {
            int a = r.nextInt(60), b = r.nextInt(300), c = r.nextInt(3000);
            String wa = v[a], wb = v[b], wc = v[c];
            switch (q % 8) {
                case 0 -> specs.add(new Spec(wc, d -> has(d, c)));
                case 1 -> specs.add(new Spec("+" + wa + " +" + wb, d -> has(d, a) && has(d, b)));
                case 2 -> specs.add(new Spec(wb + " " + wc, d -> has(d, b) || has(d, c)));
                case 3 -> specs.add(new Spec("+" + wb + " -" + wa, d -> has(d, b) && !has(d, a)));
                case 4 -> specs.add(new Spec("\"" + wa + " " + v[a / 2] + "\"", d -> phrase(d, a, a / 2)));
                case 5 -> {
                    String prefix = wc.substring(0, Math.min(3, wc.length()));
                    specs.add(new Spec(prefix + "*", d -> any(d, w -> v[w].startsWith(prefix))));
                }
                case 6 -> specs.add(new Spec("+(" + wb + " " + wc + ") +" + wa,
                        d -> (has(d, b) || has(d, c)) && has(d, a)));
                default -> specs.add(new Spec(wa + " " + wb + " " + wc, d -> has(d, a) || has(d, b) || has(d, c)));
            }
        }
        return specs;
    }

    private static boolean has(int[] doc, int word) {
        for (int w : doc) if (w == word) return true;
        return false;
    }

    private static boolean any(int[] doc, IntPredicate p) {
        for (int w : doc) if (p.test(w)) return true;
        return false;
    }

    private static boolean phrase(int[] doc, int first, int second) {
        for (int i = 0; i + 1 < doc.length; i++) if (doc[i] == first && doc[i + 1] == second) return true;
        return false;
    }

    interface Task {
        void run(int thread) throws Exception;
    }

    /** Runs {@code task} on {@code n} threads and rethrows the first failure. */
    static void parallel(int n, Task task) throws Exception {
        Throwable[] failure = new Throwable[1];
        Thread[] threads = new Thread[n];
        for (int t = 0; t < n; t++) {
            int id = t;
            threads[t] = new Thread(() -> {
                try {
                    task.run(id);
                } catch (Throwable e) {
                    synchronized (failure) {
                        if (failure[0] == null) failure[0] = e;
                    }
                }
            }, "worker-" + t);
            threads[t].start();
        }
        for (Thread t : threads) t.join();
        if (failure[0] != null) {
            if (failure[0] instanceof Exception e) throw e;
            throw new IllegalStateException("worker failed", failure[0]);
        }
    }
}
