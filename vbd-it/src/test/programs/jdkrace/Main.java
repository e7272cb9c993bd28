import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Two threads on JDK collections, in one of four ways: {@code shared} (one map, no lock: a race
 * inside HashMap), {@code locked} (one map, each put under the map's monitor), {@code confined}
 * (a map each), {@code sorted} (one list: one thread sorts it, which writes its elements through
 * java.util.Arrays, while the other reads them through ArrayList.get, no lock: a race).
 */
public class Main {
    static final int ROUNDS = 2_000;

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Map<Integer, Integer> shared = new HashMap<>();
        List<Integer> list = new ArrayList<>();
        for (int i = 0; i < 64; i++) list.add(63 - i);
        Thread[] workers = new Thread[2];
        for (int k = 0; k < workers.length; k++) {
            int worker = k;
            workers[k] = new Thread(() -> {
                Map<Integer, Integer> own = new HashMap<>();
                long sum = 0;
                for (int i = 0; i < ROUNDS; i++) {
                    Integer key = worker * ROUNDS + i;
                    switch (mode) {
                        case "shared" -> shared.put(key, i);
                        case "locked" -> {
                            synchronized (shared) {
                                shared.put(key, i);
                            }
                        }
                        case "confined" -> own.put(key, i);
                        case "sorted" -> {
                            if (worker == 0) {
                                list.sort(i % 2 == 0 ? Comparator.naturalOrder() : Comparator.reverseOrder());
                            } else {
                                sum += list.get(i % 64);
                            }
                        }
                        default -> throw new IllegalArgumentException(mode);
                    }
                }
                if (sum < 0) System.out.println(sum);
            }, "worker-" + k);
        }
        for (Thread t : workers) t.start();
        for (Thread t : workers) t.join();
        System.out.println(mode + " done");
    }
}
