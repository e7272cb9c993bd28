package dev.vbd.apps;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.IntPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * Lucene indexing: generated documents (title, body, category, a numeric field) added from a fixed pool
 * of threads to one shared IndexWriter over a {@link ByteBuffersDirectory}, with a small RAM buffer so
 * that segments are flushed and merged while the threads index.
 *
 * <p>{@code --size} is the number of documents, cut into {@value #JOBS} slices that the pool indexes.
 * Self-check, against counts made from the generated word lists without Lucene: the number of
 * documents, the body's total token count and sum of document frequencies, the document and total
 * frequencies of terms of several ranks (common to rare) in body and title, and the number of documents
 * per category. None of these depends on how the documents were cut into segments, so the result is
 * the same whatever the thread count.
 */
public final class LuceneIndex extends Workload {

    private static final long SEED = 0x1DE7_1DE7L;
    private static final int VOCABULARY = 6000;
    private static final int JOBS = 16;
    private static final int CATEGORIES = 7;
    /** vocabulary ranks whose frequencies are checked and printed: from the most common word to rare ones */
    private static final int[] RANKS = {0, 1, 2, 5, 10, 30, 100, 300, 1000, 3000, 5999};

    private static final Corpus CORPUS = new Corpus(VOCABULARY, SEED);

    public static void main(String[] args) {
        new LuceneIndex().main("lucene-index", args, 4_000);
    }

    private static int[] body(int id) {
        return CORPUS.document(SEED, id, 40, 400);
    }

    private static int[] title(int id) {
        return CORPUS.document(~SEED, id, 2, 8);
    }

    private static String category(int id) {
        return "cat" + Integer.toString(Math.floorMod(id * 7919 + 13, CATEGORIES));
    }

    @Override
    protected String iteration(Options options, int index) throws Exception {
        int docs = options.size();
        ByteBuffersDirectory dir = index(docs, options.threads());
        return report(dir, docs, expected(docs));
    }

    private static ByteBuffersDirectory index(int docs, int threads) throws Exception {
        ByteBuffersDirectory dir = new ByteBuffersDirectory();
        IndexWriterConfig config = new IndexWriterConfig(new StandardAnalyzer());
        config.setRAMBufferSizeMB(8);
        try (IndexWriter writer = new IndexWriter(dir, config)) {
            inParallel(threads, JOBS, job -> {
                for (int id = job; id < docs; id += JOBS) {
                    Document d = new Document();
                    d.add(new StoredField("id", id));
                    d.add(new IntPoint("idx", id));
                    d.add(new NumericDocValuesField("idx", id));
                    d.add(new StringField("category", category(id), Field.Store.YES));
                    d.add(new TextField("title", CORPUS.text(title(id)), Field.Store.YES));
                    d.add(new TextField("body", CORPUS.text(body(id)), Field.Store.NO));
                    writer.addDocument(d);
                }
                return null;
            });
            writer.commit();
        }

        return dir;
    }

    /** The index's facts, counted from the generated word lists. */
    private record Expected(long[] bodyDf, long[] bodyTf, long[] titleDf, long[] perCategory, long bodyTokens,
                            long bodyDocFreqs) {}

    private static Expected expected(int docs) {
        long[] bodyDf = new long[VOCABULARY], bodyTf = new long[VOCABULARY], titleDf = new long[VOCABULARY];
        long[] perCategory = new long[CATEGORIES];
        long bodyTokens = 0, bodyDocFreqs = 0;
        for (int id = 0; id < docs; id++) {
            int[] b = body(id);
            bodyTokens += b.length;
            boolean[] seen = new boolean[VOCABULARY];
            for (int w : b) {
                bodyTf[w]++;
                if (!seen[w]) {
                    seen[w] = true;
                    bodyDf[w]++;
                    bodyDocFreqs++;
                }
            }
            boolean[] inTitle = new boolean[VOCABULARY];
            for (int w : title(id)) {
                if (!inTitle[w]) {
                    inTitle[w] = true;
                    titleDf[w]++;
                }
            }
            perCategory[Integer.parseInt(category(id).substring(3))]++;
        }

        return new Expected(bodyDf, bodyTf, titleDf, perCategory, bodyTokens, bodyDocFreqs);
    }

    /** The index's facts as the workload prints them, each checked against the expected. */
    private static String report(ByteBuffersDirectory dir, int docs, Expected e) throws Exception {
        long[] bodyDf = e.bodyDf(), bodyTf = e.bodyTf(), titleDf = e.titleDf(), perCategory = e.perCategory();
        long bodyTokens = e.bodyTokens(), bodyDocFreqs = e.bodyDocFreqs();
        StringBuilder out = new StringBuilder();
        try (DirectoryReader reader = DirectoryReader.open(dir)) {
            check(reader.numDocs() == docs, "index holds " + reader.numDocs() + " documents, generated " + docs);
            long tokens = reader.getSumTotalTermFreq("body");
            check(tokens == bodyTokens, "body tokens in the index " + tokens + " == generated " + bodyTokens);
            long docFreqs = reader.getSumDocFreq("body");
            check(docFreqs == bodyDocFreqs, "sum of body document frequencies " + docFreqs + " == " + bodyDocFreqs);
            out.append("lucene-index: docs=").append(docs).append(" vocabulary=").append(VOCABULARY)
                    .append(" body_tokens=").append(tokens).append(" body_doc_freqs=").append(docFreqs).append('\n');
            for (int rank : RANKS) {
                String word = CORPUS.vocabulary[rank];
                Term body = new Term("body", word);
                Term title = new Term("title", word);
                long df = reader.docFreq(body), tf = reader.totalTermFreq(body), tdf = reader.docFreq(title);
                check(df == bodyDf[rank] && tf == bodyTf[rank] && tdf == titleDf[rank],
                        "frequencies of '" + word + "' (rank " + rank + "): body df " + df + " tf " + tf
                                + ", title df " + tdf + "; expected " + bodyDf[rank] + ", " + bodyTf[rank]
                                + ", " + titleDf[rank]);
                out.append(String.format(Locale.ROOT, "rank %4d %-12s body df=%d tf=%d title df=%d%n",
                        rank, word, df, tf, tdf));
            }
            IndexSearcher searcher = new IndexSearcher(reader);
            List<String> cats = new ArrayList<>();
            for (int c = 0; c < CATEGORIES; c++) {
                int n = searcher.count(new TermQuery(new Term("category", "cat" + c)));
                check(n == perCategory[c], "documents in cat" + c + ": " + n + " == " + perCategory[c]);
                cats.add("cat" + c + "=" + n);
            }
            int range = searcher.count(IntPoint.newRangeQuery("idx", 0, docs / 2 - 1));
            check(range == docs / 2, "documents with idx < " + docs / 2 + ": " + range);
            out.append("categories: ").append(String.join(" ", cats)).append('\n');
        }
        return out.toString();
    }
}
