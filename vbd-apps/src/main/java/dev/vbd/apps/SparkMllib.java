package dev.vbd.apps;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.mllib.classification.SVMModel;
import org.apache.spark.mllib.classification.SVMWithSGD;
import org.apache.spark.mllib.clustering.KMeans;
import org.apache.spark.mllib.clustering.KMeansModel;
import org.apache.spark.mllib.linalg.Vector;
import org.apache.spark.mllib.linalg.Vectors;
import org.apache.spark.mllib.regression.LabeledPoint;

/**
 * Spark MLlib in local mode ({@code local[threads]}), RDD API: k-means (k-means|| initialisation) on
 * generated points around well separated centres, then a linear SVM trained by stochastic gradient
 * descent on generated linearly separable points and tested on fresh ones.
 *
 * <p>{@code --size} is the number of k-means points; the SVM gets half as many training and a quarter as
 * many test points. Points are made on the executors from their index, so the driver never ships data.
 * Floating-point sums over partitions arrive in any order, so only facts that such rounding cannot
 * move are printed. Self-check: k-means finds {@value #K} clusters, each within a small distance of a
 * distinct true centre; every cluster's size equals the number of points generated around its centre;
 * each fitted centre equals the mean of those points, computed in the driver; the model's cost is at
 * most the cost of the true centres. The SVM classifies at least {@value #MIN_ACCURACY} of the test
 * points correctly. One SparkContext serves all iterations, as in {@link SparkWordCount}.
 */
public final class SparkMllib extends Workload {

    private static final long SEED = 0x3A11_1B5EL;
    /**
     * Every k-means and SGD step is a Spark job, and each task of a job has a fixed cost: with more
     * partitions than this, scheduling rather than MLlib would take most of the time.
     */
    private static final int PARTITIONS = 4;
    /** full-batch SGD steps: enough for 99% test accuracy on these points, with a margin to the bound */
    private static final int SVM_STEPS = 5;
    static final int K = 6;
    private static final int DIMENSIONS = 8;
    /** noise per coordinate is uniform in [-SPREAD, SPREAD]; centres lie at least SEPARATION apart */
    private static final double SPREAD = 4.0;
    private static final double SEPARATION = 60.0;
    private static final int SVM_DIMENSIONS = 10;
    private static final double MARGIN = 0.1;
    static final double MIN_ACCURACY = 0.97;
    private static final double[][] CENTRES = centres();
    private static final double[] SVM_NORMAL = normal();

    private JavaSparkContext sc;

    public static void main(String[] args) {
        new SparkMllib().main("spark-mllib", args, 5_000);
    }

    @Override
    protected void setUp(Options options) {
        sc = SparkWordCount.localContext("vbd-mllib", options.threads(), PARTITIONS);
    }

    @Override
    protected void tearDown() {
        if (sc != null) sc.stop();
    }

    private static double[][] centres() {
        Random r = new Random(SEED);
        List<double[]> cs = new ArrayList<>();
        while (cs.size() < K) {
            double[] c = new double[DIMENSIONS];
            for (int i = 0; i < DIMENSIONS; i++) c[i] = -100 + 200 * r.nextDouble();
            boolean apart = true;
            for (double[] o : cs) apart &= Math.sqrt(squaredDistance(c, o)) >= SEPARATION;
            if (apart) cs.add(c);
        }
        return cs.toArray(new double[0][]);
    }

    private static double[] normal() {
        Random r = new Random(SEED + 1);
        double[] w = new double[SVM_DIMENSIONS];
        for (int i = 0; i < w.length; i++) w[i] = r.nextGaussian();
        return w;
    }

    static double squaredDistance(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) s += (a[i] - b[i]) * (a[i] - b[i]);
        return s;
    }

    /** The true centre that point {@code n} is generated around. */
    static int blob(int n) {
        return new Random(SEED * 7 + n).nextInt(K);
    }

    static double[] point(int n) {
        Random r = new Random(SEED * 7 + n);
        double[] c = CENTRES[r.nextInt(K)];
        double[] p = new double[DIMENSIONS];
        for (int i = 0; i < DIMENSIONS; i++) p[i] = c[i] + SPREAD * (2 * r.nextDouble() - 1);
        return p;
    }

    /** A point at least MARGIN from the separating hyperplane through the origin, labelled by its side. */
    static LabeledPoint labelled(long seed) {
        Random r = new Random(seed);
        while (true) {
            double[] x = new double[SVM_DIMENSIONS];
            double dot = 0, norm = 0;
            for (int i = 0; i < x.length; i++) {
                x[i] = 2 * r.nextDouble() - 1;
                dot += x[i] * SVM_NORMAL[i];
                norm += SVM_NORMAL[i] * SVM_NORMAL[i];
            }
            if (Math.abs(dot) / Math.sqrt(norm) >= MARGIN) return new LabeledPoint(dot > 0 ? 1 : 0, Vectors.dense(x));
        }
    }

    private JavaRDD<Integer> indexes(int n) {
        List<Integer> ids = new ArrayList<>(n);
        for (int i = 0; i < n; i++) ids.add(i);
        return sc.parallelize(ids, PARTITIONS);
    }

    @Override
    protected String iteration(Options options, int index) {
        int n = options.size();
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "spark-mllib: points=%d dimensions=%d partitions=%d%n", n, DIMENSIONS, PARTITIONS));
        kMeans(n, out);
        svm(n, out);
        return out.toString();
    }

    private void kMeans(int n, StringBuilder out) {
        JavaRDD<Vector> points = indexes(n).map(i -> Vectors.dense(point(i))).cache();
        try {
            KMeansModel model = new KMeans().setK(K).setMaxIterations(20).setInitializationMode(KMeans.K_MEANS_PARALLEL())
                    .setSeed(SEED).run(points.rdd());
            Vector[] fitted = model.clusterCenters();
            check(fitted.length == K, "k-means found " + fitted.length + " centres, expected " + K);

            // the driver's own figures: points, coordinate sums and cost per true centre
            long[] counts = new long[K];
            double[][] sums = new double[K][DIMENSIONS];
            double trueCost = 0;
            for (int i = 0; i < n; i++) {
                int b = blob(i);
                double[] p = point(i);
                counts[b]++;
                for (int d = 0; d < DIMENSIONS; d++) sums[b][d] += p[d];
                trueCost += squaredDistance(p, CENTRES[b]);
            }

            int[] blobOf = new int[K];
            boolean[] taken = new boolean[K];
            for (int c = 0; c < K; c++) {
                double[] f = fitted[c].toArray();
                int best = 0;
                for (int b = 1; b < K; b++) {
                    if (squaredDistance(f, CENTRES[b]) < squaredDistance(f, CENTRES[best])) best = b;
                }
                double distance = Math.sqrt(squaredDistance(f, CENTRES[best]));
                check(distance < SPREAD, "fitted centre " + c + " lies " + distance + " from the nearest true centre "
                        + best + " (at most " + SPREAD + ")");
                check(!taken[best], "true centre " + best + " has one fitted centre, not two");
                taken[best] = true;
                blobOf[c] = best;
                double[] mean = new double[DIMENSIONS];
                for (int d = 0; d < DIMENSIONS; d++) mean[d] = sums[best][d] / counts[best];
                double off = Math.sqrt(squaredDistance(f, mean));
                check(off < 1e-6, "fitted centre " + c + " is the mean of the points of true centre " + best
                        + " (off by " + off + ")");
            }
            Map<Integer, Long> sizes = model.predict(points).countByValue();
            long[] perBlob = new long[K];
            for (Map.Entry<Integer, Long> e : sizes.entrySet()) perBlob[blobOf[e.getKey()]] = e.getValue();
            StringBuilder sizeText = new StringBuilder();
            for (int b = 0; b < K; b++) {
                check(perBlob[b] == counts[b], "cluster of true centre " + b + " has " + perBlob[b]
                        + " points, generated " + counts[b]);
                sizeText.append(' ').append(perBlob[b]);
            }
            double cost = model.computeCost(points.rdd());
            check(cost <= trueCost * (1 + 1e-9), "k-means cost " + cost + " is at most the true centres' cost " + trueCost);
            out.append("kmeans: k=").append(K).append(" cluster sizes by true centre:").append(sizeText).append('\n')
                    .append("kmeans: every centre is its cluster's mean, cost <= true centres' cost\n");
        } finally {
            points.unpersist(true);
        }
    }

    private void svm(int n, StringBuilder out) {
        int trainSize = Math.max(n / 2, 100), testSize = Math.max(n / 4, 100);
        JavaRDD<LabeledPoint> train = indexes(trainSize).map(i -> labelled(SEED * 11 + i)).cache();
        JavaRDD<LabeledPoint> test = indexes(testSize).map(i -> labelled(SEED * 13 + i));
        try {
            SVMModel model = SVMWithSGD.train(train.rdd(), SVM_STEPS, 1.0, 0.0, 1.0);
            long correct = test.filter(p -> model.predict(p.features()) == p.label()).count();
            long positives = train.filter(p -> p.label() == 1.0).count();
            double accuracy = (double) correct / testSize;
            check(accuracy >= MIN_ACCURACY, "SVM test accuracy " + accuracy + " (" + correct + " of " + testSize
                    + "), expected at least " + MIN_ACCURACY);
            out.append(String.format(Locale.ROOT, "svm: train=%d (positive %d) test=%d accuracy>=%.2f%n",
                    trainSize, positives, testSize, MIN_ACCURACY));
        } finally {
            train.unpersist(true);
        }
    }
}
