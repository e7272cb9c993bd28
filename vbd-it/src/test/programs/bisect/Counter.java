import java.util.concurrent.atomic.LongAdder;

/**
 * Counts events twice: atomically, and in a plain field with {@code count++}, a read and a write
 * that two threads can interleave, losing an update, under SC as much as under the Java memory model.
 */
final class Counter {
    /** The bug, which no volatile repairs. */
    int count;
    /** The same count, kept right; it also keeps C2 from holding {@code count} in a register across the loop. */
    final LongAdder events = new LongAdder();

    void record() {
        events.increment();
        count++;
    }
}
