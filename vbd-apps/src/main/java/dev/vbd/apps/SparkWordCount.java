package dev.vbd.apps;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import scala.Tuple2;

/**
 * Spark in local mode ({@code local[threads]}): a word count over generated text with the RDD API
 * (flatMap, mapToPair, reduceByKey with a shuffle over several partitions), the counts sorted by
 * frequency and then by word.
 *
 * <p>{@code --size} is the number of lines. The lines are made on the executors from their line
 * numbers, so the driver never ships the text. Self-check: the total of the counts equals the number of
 * generated words, and every word's count equals a plain single-threaded count in the driver.
 * One SparkContext serves all iterations (starting one takes seconds and is not the work measured).
 */
public final class SparkWordCount extends Workload {

    private static final long SEED = 0x5A2C_0DE5L;
    private static final int VOCABULARY = 3000;
    private static final int PARTITIONS = 8;
    private JavaSparkContext sc;

    public static void main(String[] args) {
        new SparkWordCount().main("spark", args, 20_000);
    }

    /** JVM options Spark 3.5 needs on Java 17+ (its launcher's JavaModuleOptions). */
    public static final List<String> JVM_OPTIONS = List.of(
            "-XX:+IgnoreUnrecognizedVMOptions",
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.net=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
            "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
            "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
            "--add-opens=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
            "-Djdk.reflect.useDirectMethodHandle=false");

    /**
     * SPARK_USER spares Spark from asking Hadoop for the user, which calls Subject.getSubject, unsupported
     * from Java 23 on; SPARK_LOCAL_IP keeps Spark on the loopback interface (and quiet about it).
     */
    public static final Map<String, String> ENVIRONMENT = Map.of("SPARK_USER", "vbd-apps", "SPARK_LOCAL_IP", "127.0.0.1");

    /** A local-mode context with {@code threads} executor threads, quiet, on the loopback interface. */
    static JavaSparkContext localContext(String appName, int threads, int partitions) {
        SparkConf conf = new SparkConf()
                .setMaster("local[" + threads + "]")
                .setAppName(appName)
                .set("spark.ui.enabled", "false")
                .set("spark.ui.showConsoleProgress", "false")
                .set("spark.driver.host", "127.0.0.1")
                .set("spark.driver.bindAddress", "127.0.0.1")
                .set("spark.sql.shuffle.partitions", String.valueOf(partitions));
        JavaSparkContext sc = new JavaSparkContext(conf);
        sc.setLogLevel("WARN");
        return sc;
    }

    @Override
    protected void setUp(Options options) {
        sc = localContext("vbd-wordcount", options.threads(), PARTITIONS);
    }

    @Override
    protected void tearDown() {
        if (sc != null) sc.stop();
    }

    /** Line {@code n} of the text: made from its own seed so that any executor can make any line. */
    static String line(int n) {
        Corpus corpus = CORPUS;
        return corpus.text(corpus.document(SEED, n, 3, 25));
    }

    private static final Corpus CORPUS = new Corpus(VOCABULARY, SEED);

    @Override
    protected String iteration(Options options, int index) {
        int lines = options.size();
        List<Integer> numbers = new ArrayList<>(lines);
        for (int i = 0; i < lines; i++) numbers.add(i);

        JavaPairRDD<String, Integer> counts = sc.parallelize(numbers, PARTITIONS)
                .map(SparkWordCount::line)
                .flatMap(l -> Arrays.asList(l.split(" ")).iterator())
                .mapToPair(w -> new Tuple2<>(w, 1))
                .reduceByKey(Integer::sum, PARTITIONS);
        List<Tuple2<String, Integer>> result = new ArrayList<>(counts.collect());
        long total = counts.values().map(Integer::longValue).reduce(Long::sum);

        Map<String, Integer> expected = new HashMap<>();
        long words = 0;
        for (int i = 0; i < lines; i++) {
            for (String w : line(i).split(" ")) {
                expected.merge(w, 1, Integer::sum);
                words++;
            }
        }
        check(total == words, "sum of counts " + total + " == generated words " + words);
        check(result.size() == expected.size(), "distinct words " + result.size() + " == " + expected.size());
        for (Tuple2<String, Integer> t : result) {
            check(t._2().equals(expected.get(t._1())), "count of '" + t._1() + "' " + t._2()
                    + " == " + expected.get(t._1()));
        }

        result.sort((a, b) -> !a._2().equals(b._2()) ? Integer.compare(b._2(), a._2()) : a._1().compareTo(b._1()));
        StringBuilder out = new StringBuilder();
        out.append("spark wordcount: lines=").append(lines).append(" words=").append(total)
                .append(" distinct=").append(result.size()).append(" partitions=").append(PARTITIONS).append('\n');
        for (int i = 0; i < Math.min(20, result.size()); i++) {
            out.append(String.format("%2d %-12s %d\n", i + 1, result.get(i)._1(), result.get(i)._2()));
        }
        long singles = result.stream().filter(t -> t._2() == 1).count();
        out.append("words seen once: ").append(singles).append('\n');
        return out.toString();
    }
}
