package dev.vbd.litmus.locks;

import dev.vbd.locks.ReservedLock;

/** A test's lock, new with each state, reserved inside an actor (see the package's description). */
abstract class FreshLock {
    final ReservedLock lock = new ReservedLock();

    /** Takes and releases the lock once: the calling actor reserves it, unless the other got there first. */
    void reserve() {
        lock.lock();
        lock.unlock();
    }
}
