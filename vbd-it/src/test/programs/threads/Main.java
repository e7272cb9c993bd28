import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
import java.util.concurrent.locks.*;

/** Threads, monitors, executors and j.u.c. building blocks, with output that does not depend on scheduling. */
public class Main {
    static int shared;
    static final Object lock = new Object();
    int guarded;

    synchronized void increment() { guarded++; }

    public static void main(String[] args) throws Exception {
        Thread[] ts = new Thread[4];
        for (int t = 0; t < ts.length; t++) {
            ts[t] = new Thread(() -> {
                for (int k = 0; k < 50_000; k++) synchronized (lock) { shared++; }
            }, "worker-" + t);
            ts[t].start();
        }
        for (Thread t : ts) t.join();
        System.out.println("synchronized block " + shared);

        Main m = new Main();
        Thread a = new Thread(() -> { for (int k = 0; k < 30_000; k++) m.increment(); });
        Thread b = new Thread(() -> { for (int k = 0; k < 30_000; k++) m.increment(); });
        a.start(); b.start(); a.join(); b.join();
        System.out.println("synchronized method " + m.guarded);

        ExecutorService pool = Executors.newFixedThreadPool(3);
        List<Callable<Long>> tasks = new ArrayList<>();
        for (int t = 1; t <= 8; t++) {
            final int n = t;
            tasks.add(() -> { long s = 0; for (int k = 1; k <= n * 1000; k++) s += k; return s; });
        }
        List<Long> results = new ArrayList<>();
        for (Future<Long> f : pool.invokeAll(tasks)) results.add(f.get());
        System.out.println("invokeAll " + results);
        Future<String> failing = pool.submit(() -> { throw new IllegalStateException("task failed"); });
        try {
            failing.get();
        } catch (ExecutionException e) {
            System.out.println("future -> " + e.getCause());
        }
        CompletableFuture<Integer> cf = CompletableFuture.supplyAsync(() -> 6, pool).thenApplyAsync(x -> x * 7, pool)
                .thenCombine(CompletableFuture.supplyAsync(() -> 100, pool), Integer::sum);
        System.out.println("CompletableFuture " + cf.get());
        pool.shutdown();
        System.out.println("terminated " + pool.awaitTermination(1, TimeUnit.MINUTES));

        BlockingQueue<Integer> queue = new ArrayBlockingQueue<>(4);
        List<Integer> consumed = Collections.synchronizedList(new ArrayList<>());
        Thread producer = new Thread(() -> {
            try { for (int k = 0; k < 100; k++) queue.put(k); queue.put(-1); } catch (InterruptedException e) { throw new RuntimeException(e); }
        });
        Thread consumer = new Thread(() -> {
            try { for (int v; (v = queue.take()) >= 0; ) consumed.add(v); } catch (InterruptedException e) { throw new RuntimeException(e); }
        });
        producer.start(); consumer.start(); producer.join(); consumer.join();
        System.out.println("queue in order " + consumed.equals(new ArrayList<>(java.util.stream.IntStream.range(0, 100).boxed().toList())) + " size " + consumed.size());

        final int[] box = new int[1];
        final boolean[] ready = new boolean[1];
        Thread waiter = new Thread(() -> {
            synchronized (box) {
                while (!ready[0]) {
                    try { box.wait(); } catch (InterruptedException e) { return; }
                }
                box[0] *= 2;
            }
        });
        waiter.start();
        synchronized (box) { box[0] = 21; ready[0] = true; box.notifyAll(); }
        waiter.join();
        System.out.println("wait/notify " + box[0]);

        AtomicLong atomic = new AtomicLong();
        LongAdder adder = new LongAdder();
        AtomicIntegerArray slots = new AtomicIntegerArray(8);
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(4);
        for (int t = 0; t < 4; t++) {
            final int id = t;
            new Thread(() -> {
                try { start.await(); } catch (InterruptedException e) { return; }
                for (int k = 0; k < 10_000; k++) { atomic.incrementAndGet(); adder.add(2); slots.incrementAndGet((k + id) % 8); }
                done.countDown();
            }).start();
        }
        start.countDown();
        done.await();
        System.out.println("atomics " + atomic.get() + " " + adder.sum() + " " + slots);

        ReentrantLock rl = new ReentrantLock();
        Condition turn = rl.newCondition();
        int[] next = {0};
        StringBuilder order = new StringBuilder();
        Thread[] pingers = new Thread[3];
        for (int t = 0; t < 3; t++) {
            final int id = t;
            pingers[t] = new Thread(() -> {
                for (int round = 0; round < 5; round++) {
                    rl.lock();
                    try {
                        while (next[0] % 3 != id) turn.awaitUninterruptibly();
                        order.append(id);
                        next[0]++;
                        turn.signalAll();
                    } finally {
                        rl.unlock();
                    }
                }
            });
            pingers[t].start();
        }
        for (Thread t : pingers) t.join();
        System.out.println("round robin " + order);

        CyclicBarrier barrier = new CyclicBarrier(3);
        ConcurrentLinkedQueue<String> phases = new ConcurrentLinkedQueue<>();
        Thread[] parties = new Thread[3];
        for (int t = 0; t < 3; t++) {
            parties[t] = new Thread(() -> {
                try {
                    for (int p = 0; p < 3; p++) { phases.add("p" + p); barrier.await(); }
                } catch (Exception e) { throw new RuntimeException(e); }
            });
            parties[t].start();
        }
        for (Thread t : parties) t.join();
        List<String> sortedPhases = new ArrayList<>(phases);
        System.out.println("barrier phases " + sortedPhases + " (ordered by phase: " + isSortedByPhase(sortedPhases) + ")");

        ThreadLocal<Integer> tl = ThreadLocal.withInitial(() -> 7);
        tl.set(8);
        int[] other = new int[1];
        Thread tlThread = new Thread(() -> other[0] = tl.get());
        tlThread.start(); tlThread.join();
        System.out.println("ThreadLocal " + tl.get() + " " + other[0]);
        Thread named = new Thread(() -> {}, "custom-name");
        System.out.println("thread name " + named.getName() + " daemon " + named.isDaemon() + " state " + named.getState());
        ForkJoinPool fj = new ForkJoinPool(2);
        System.out.println("fork/join " + fj.invoke(new Fib(20)));
        fj.shutdown();
    }

    static boolean isSortedByPhase(List<String> phases) {
        for (int k = 1; k < phases.size(); k++) if (phases.get(k - 1).compareTo(phases.get(k)) > 0) return false;
        return true;
    }

    static class Fib extends RecursiveTask<Integer> {
        final int n;
        Fib(int n) { this.n = n; }
        protected Integer compute() {
            if (n < 2) return n;
            Fib f1 = new Fib(n - 1);
            f1.fork();
            return new Fib(n - 2).compute() + f1.join();
        }
    }
}
