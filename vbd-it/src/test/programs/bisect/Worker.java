/** A background worker that runs until another thread tells it to stop. */
final class Worker implements Runnable {
    /** The bug: not volatile, so C2 may read it once, before the loop, and never again. */
    boolean stop;
    /** How many rounds it ran; read by the main thread after join, which orders it. */
    long rounds;

    @Override
    public void run() {
        long n = 0;
        while (!stop) {
            n++;
        }
        rounds = n;
    }
}
