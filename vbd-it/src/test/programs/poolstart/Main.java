import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * What the main thread built, read by an executor's worker thread, which the JDK starts. {@code
 * fresh}: the pool starts its worker when the task is submitted, after the table was filled.
 * {@code prestarted}: the worker was started before; the task reaches it through the pool's queue,
 * in JDK code.
 */
public class Main {
    static final class Table {
        final int[] cells = new int[16];

        void fill() {
            for (int i = 0; i < cells.length; i++) cells[i] = i;
        }

        int read() {
            int sum = 0;
            for (int c : cells) sum += c;
            return sum;
        }
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        ExecutorService pool = Executors.newFixedThreadPool(1);
        if (mode.equals("prestarted")) {
            ((ThreadPoolExecutor) pool).prestartAllCoreThreads();
        } else if (!mode.equals("fresh")) {
            throw new IllegalArgumentException(mode);
        }
        Table table = new Table();
        table.fill();
        int sum = pool.submit(table::read).get();
        pool.shutdown();
        pool.awaitTermination(1, TimeUnit.MINUTES);
        if (sum != 120) throw new AssertionError(sum);
        System.out.println(mode + " done");
    }
}
