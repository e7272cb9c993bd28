import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** The critical section behind {@link Door}; it counts the times it found someone already inside. */
final class Room {
    final AtomicInteger occupants = new AtomicInteger();
    final AtomicInteger collisions = new AtomicInteger();
    final AtomicLong work = new AtomicLong();

    void use() {
        if (occupants.incrementAndGet() != 1) collisions.incrementAndGet();
        // a little work, so that a second thread that got in at the same time finds the first still here
        long x = System.nanoTime();
        for (int i = 0; i < 50; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        work.addAndGet(x);
        occupants.decrementAndGet();
    }
}
