package dev.vbd.demo;

/**
 * Publication through a plain flag: one thread writes {@code data} then sets {@code ready};
 * the other spins until {@code ready} and reads {@code data}. Under the Java memory model the
 * JIT may read {@code ready} once and spin forever, or see {@code ready} before {@code data}.
 */
final class Publication {
    static int data;
    static boolean ready;

    private Publication() {}

    static String run() throws InterruptedException {
        int[] seen = {-1};
        Thread reader = new Thread(() -> {
            while (!ready) {
                // spin: no volatile, no synchronisation
            }
            seen[0] = data;
        }, "reader");
        reader.setDaemon(true);
        reader.start();
        Thread.sleep(1000); // let the JIT compile the spin loop while ready is still false
        data = 42;
        ready = true;
        reader.join(3000);
        if (reader.isAlive()) {
            return "publication: reader STUCK: it never saw ready=true (the JIT hoisted the load out of the loop)";
        }
        return "publication: reader saw ready=true and data=" + seen[0];
    }
}
