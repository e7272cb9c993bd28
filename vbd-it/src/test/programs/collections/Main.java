import java.util.*;
import java.util.concurrent.*;
import java.util.function.*;
import java.util.stream.*;

/** Collections and streams: every result is printed in an order the JDK defines. */
public class Main {
    public static void main(String[] args) throws Exception {
        Map<String, Integer> hash = new HashMap<>();
        for (int i = 0; i < 200; i++) hash.merge("k" + (i % 37), i, Integer::sum);
        hash.remove("k3");
        hash.computeIfAbsent("fresh", k -> k.length());
        hash.computeIfPresent("k5", (k, v) -> v * 2);
        System.out.println("HashMap " + hash.size() + " " + hash);

        TreeMap<String, Integer> tree = new TreeMap<>(Comparator.reverseOrder());
        tree.putAll(hash);
        System.out.println("TreeMap first=" + tree.firstEntry() + " last=" + tree.lastEntry()
                + " head(k2)=" + tree.headMap("k2") + " ceiling(k33)=" + tree.ceilingKey("k33"));

        List<Integer> list = new ArrayList<>();
        for (int i = 0; i < 100; i++) list.add((i * 7919) % 101);
        list.removeIf(x -> x % 5 == 0);
        list.subList(10, 20).clear();
        Collections.sort(list);
        System.out.println("ArrayList " + list.size() + " " + list);
        Collections.shuffle(list, new Random(42));
        System.out.println("shuffled " + list.subList(0, 15));
        list.sort(Comparator.comparing((Integer x) -> x % 10).thenComparing(Comparator.reverseOrder()));
        System.out.println("sorted by last digit " + list.subList(0, 20));

        ArrayDeque<String> deque = new ArrayDeque<>(4);
        for (int i = 0; i < 20; i++) {
            if (i % 3 == 0) deque.addFirst("f" + i); else deque.addLast("l" + i);
            if (i % 7 == 6) deque.pollFirst();
        }
        System.out.println("ArrayDeque " + deque + " peekLast=" + deque.peekLast());

        ConcurrentHashMap<Integer, Long> chm = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<?>> fs = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            fs.add(pool.submit(() -> {
                for (int i = 0; i < 10_000; i++) chm.merge(i % 97, 1L, Long::sum);
            }));
        }
        for (Future<?> f : fs) f.get();
        pool.shutdown();
        System.out.println("ConcurrentHashMap size=" + chm.size() + " sum=" + chm.reduceValuesToLong(1, v -> v, 0, Long::sum)
                + " k0=" + chm.get(0) + " k96=" + chm.get(96) + " " + new TreeMap<>(chm).headMap(5));

        System.out.println("stream " + IntStream.rangeClosed(1, 50).filter(i -> i % 3 != 0)
                .mapToObj(Integer::toString).collect(Collectors.joining(",", "[", "]")));
        Map<Boolean, List<Integer>> parts = IntStream.range(0, 30).boxed().collect(Collectors.partitioningBy(i -> i % 4 == 0));
        System.out.println("partition " + parts);
        Map<Integer, Long> groups = Stream.of("a", "bb", "cc", "ddd", "e", "ffff", "gg")
                .collect(Collectors.groupingBy(String::length, TreeMap::new, Collectors.counting()));
        System.out.println("grouping " + groups);
        System.out.println("parallel sum " + LongStream.rangeClosed(1, 2_000_000).parallel().map(x -> x * 3 % 1000).sum());
        System.out.println("parallel ordered " + IntStream.range(0, 1000).parallel().map(x -> x * x).boxed()
                .collect(Collectors.toList()).subList(990, 1000));
        System.out.println("reduce " + Stream.iterate(1L, x -> x * 3 % 1_000_003).limit(5000).reduce(0L, Long::sum));
        System.out.println("flatMap distinct sorted " + Stream.of("delta alpha", "charlie bravo", "alpha echo")
                .flatMap(s -> Arrays.stream(s.split(" "))).distinct().sorted().toList());

        int[] big = new int[100_000];
        Random r = new Random(7);
        for (int i = 0; i < big.length; i++) big[i] = r.nextInt();
        int[] copy = big.clone();
        Arrays.sort(big);
        Arrays.parallelSort(copy);
        System.out.println("sort " + Arrays.equals(big, copy) + " min=" + big[0] + " max=" + big[big.length - 1]
                + " median=" + big[big.length / 2] + " hash=" + Arrays.hashCode(big));
        String[] words = {"pear", "Apple", "fig", "banana", "apple", "Fig", "cherry"};
        Arrays.sort(words, String.CASE_INSENSITIVE_ORDER);
        System.out.println("words " + Arrays.toString(words) + " search(fig)=" + Arrays.binarySearch(words, "fig", String.CASE_INSENSITIVE_ORDER));

        PriorityQueue<int[]> pq = new PriorityQueue<>(Comparator.comparingInt((int[] a) -> a[0]).thenComparingInt(a -> a[1]));
        for (int i = 0; i < 20; i++) pq.add(new int[]{(i * 13) % 7, i});
        StringBuilder sb = new StringBuilder();
        while (!pq.isEmpty()) { int[] a = pq.poll(); sb.append(a[0]).append(':').append(a[1]).append(' '); }
        System.out.println("PriorityQueue " + sb.toString().trim());

        LinkedHashMap<String, Integer> lru = new LinkedHashMap<>(16, 0.75f, true) {
            @Override protected boolean removeEldestEntry(Map.Entry<String, Integer> e) { return size() > 4; }
        };
        for (String s : "a b c d a e b f a".split(" ")) lru.merge(s, 1, Integer::sum);
        System.out.println("LRU " + lru);
        System.out.println("immutable " + List.of(3, 1, 2) + " " + Set.copyOf(List.of(5)) + " " + Map.of("one", 1));
        try {
            List.of(1).add(2);
        } catch (UnsupportedOperationException e) {
            System.out.println("List.of add -> " + e.getClass().getName());
        }
        BitSet bits = new BitSet();
        for (int i = 0; i < 200; i += 7) bits.set(i);
        System.out.println("BitSet " + bits.cardinality() + " " + bits.nextSetBit(100) + " " + bits);
    }
}
