package dev.vbd.litmus.locks;

/** A fresh lock and a plain counter incremented under it. */
abstract class LockedCounter extends FreshLock {
    int count;

    /** Reserves the lock, then increments the counter under it {@code times} times, one acquisition each. */
    void reserveThenIncrement(int times) {
        reserve();
        for (int i = 0; i < times; i++) {
            increment();
        }
    }

    /** Increments the counter under the lock. */
    void increment() {
        lock.lock();
        try {
            count = count + 1;
        } finally {
            lock.unlock();
        }
    }
}
