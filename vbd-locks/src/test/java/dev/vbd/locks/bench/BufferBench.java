package dev.vbd.locks.bench;

import dev.vbd.locks.ReservedLock;
import org.openjdk.jmh.annotations.*;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A workload that locks heavily: a StringBuffer-style shared buffer (every method locks, as in
 * java.lang.StringBuffer) used by one thread, and owner-dominant (another thread appends once every
 * millisecond). One operation: eight appends, length() and setLength(0): ten lock/unlock pairs.
 * The three buffers share their code; only the lock differs.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class BufferBench {

    /** The buffer of java.lang.StringBuffer's shape, its synchronized methods on a Lock. */
    static final class LockedBuffer {
        private final Lock lock;
        private char[] value = new char[16];
        private int count;

        LockedBuffer(Lock lock) {
            this.lock = lock;
        }

        LockedBuffer append(String s) {
            lock.lock();
            try {
                int n = s.length();
                if (count + n > value.length) value = Arrays.copyOf(value, Math.max(value.length * 2, count + n));
                s.getChars(0, n, value, count);
                count += n;
                return this;
            } finally {
                lock.unlock();
            }
        }

        int length() {
            lock.lock();
            try {
                return count;
            } finally {
                lock.unlock();
            }
        }

        void setLength(int n) {
            lock.lock();
            try {
                count = n;
            } finally {
                lock.unlock();
            }
        }
    }

    /** The same buffer with synchronized methods. */
    static final class SyncBuffer {
        private char[] value = new char[16];
        private int count;

        synchronized SyncBuffer append(String s) {
            int n = s.length();
            if (count + n > value.length) value = Arrays.copyOf(value, Math.max(value.length * 2, count + n));
            s.getChars(0, n, value, count);
            count += n;
            return this;
        }

        synchronized int length() {
            return count;
        }

        synchronized void setLength(int n) {
            count = n;
        }
    }

    @State(Scope.Group)
    public static class Buffers {
        @Param({"reserved", "reentrant", "sync"})
        public String lock;
        LockedBuffer locked;
        SyncBuffer sync;

        @Setup(Level.Trial)
        public void setUp() {
            switch (lock) {
                case "reserved" -> {
                    if (!ReservedLock.reservationAvailable()) {
                        throw new IllegalStateException("no reservation: " + ReservedLock.reservationUnavailableReason());
                    }
                    locked = new LockedBuffer(new ReservedLock());
                }
                case "reentrant" -> locked = new LockedBuffer(new ReentrantLock());
                case "sync" -> sync = new SyncBuffer();
                default -> throw new IllegalArgumentException(lock);
            }
        }
    }

    static int work(Buffers b) {
        if (b.sync != null) {
            SyncBuffer s = b.sync;
            for (int i = 0; i < 8; i++) s.append("abc");
            int n = s.length();
            s.setLength(0);
            return n;
        }
        LockedBuffer s = b.locked;
        for (int i = 0; i < 8; i++) s.append("abc");
        int n = s.length();
        s.setLength(0);
        return n;
    }

    @Benchmark @Group("single") @GroupThreads(1)
    public int single(Buffers b) {
        return work(b);
    }

    @Benchmark @Group("ownerDominant") @GroupThreads(1)
    public int owner(Buffers b) {
        return work(b);
    }

    @Benchmark @Group("ownerDominant") @GroupThreads(1)
    public int intruder(Buffers b) throws InterruptedException {
        int n;
        if (b.sync != null) {
            n = b.sync.append("x").length();
        } else {
            n = b.locked.append("x").length();
        }
        Thread.sleep(1);
        return n;
    }
}
