/** Writes to both streams, then dies of an uncaught exception: its stack trace goes to stderr and the status is 1. */
public class Main {
    public static void main(String[] args) throws InterruptedException {
        System.out.println("to stdout");
        System.err.println("to stderr: line 1");
        System.err.print("to stderr without newline; ");
        System.err.printf("formatted %d%n", 42);
        System.out.println("to stdout again");
        Thread t = new Thread(() -> { throw new IllegalArgumentException("uncaught in a thread"); }, "failing-thread");
        t.start();
        t.join();
        fail(3);
    }

    static void fail(int depth) {
        if (depth == 0) throw new IllegalStateException("uncaught in main");
        fail(depth - 1);
    }
}
