import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A table one thread builds and another reads, handed over in JDK code. {@code fresh}: the main
 * thread fills it, and an executor starts its worker when the task is submitted. {@code
 * prestarted}: the worker was started before; the task reaches it through the pool's queue.
 * {@code returned}: a worker started before builds it, and the main thread reads what the task's
 * future returned. {@code queued}: the main thread fills it and puts it in a blocking queue, which
 * a thread it started before takes it from. {@code atomic}: the same, through an {@code
 * AtomicReference} the other thread waits on.
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
        int sum = switch (mode) {
            case "fresh", "prestarted" -> {
                ExecutorService pool = Executors.newFixedThreadPool(1);
                if (mode.equals("prestarted")) ((ThreadPoolExecutor) pool).prestartAllCoreThreads();
                Table table = new Table();
                table.fill();
                yield finish(pool, pool.submit(table::read).get());
            }
            case "returned" -> {
                ExecutorService pool = Executors.newFixedThreadPool(1);
                ((ThreadPoolExecutor) pool).prestartAllCoreThreads();
                Table table = pool.submit(() -> {
                    Table t = new Table();
                    t.fill();
                    return t;
                }).get();
                yield finish(pool, table.read());
            }
            case "queued" -> {
                BlockingQueue<Table> queue = new LinkedBlockingQueue<>();
                int[] got = new int[1];
                Thread reader = new Thread(() -> {
                    try {
                        got[0] = queue.take().read();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
                reader.start();
                Table table = new Table();
                table.fill();
                queue.put(table);
                reader.join();
                yield got[0];
            }
            case "atomic" -> {
                AtomicReference<Table> slot = new AtomicReference<>();
                int[] got = new int[1];
                Thread reader = new Thread(() -> {
                    Table t;
                    while ((t = slot.get()) == null) Thread.onSpinWait();
                    got[0] = t.read();
                });
                reader.start();
                Table table = new Table();
                table.fill();
                slot.set(table);
                reader.join();
                yield got[0];
            }
            default -> throw new IllegalArgumentException(mode);
        };
        if (sum != 120) throw new AssertionError(sum);
        System.out.println(mode + " done");
    }

    private static int finish(ExecutorService pool, int sum) throws InterruptedException {
        pool.shutdown();
        pool.awaitTermination(1, TimeUnit.MINUTES);
        return sum;
    }
}
