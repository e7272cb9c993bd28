package dev.vbd.agent.observe;

/** An immutable set of lock objects, compared by identity: the locks a thread holds, or that every access to a location held. */
final class LockSet {
    static final LockSet EMPTY = new LockSet(new Object[0]);

    private final Object[] locks;

    private LockSet(Object[] locks) {
        this.locks = locks;
    }

    boolean isEmpty() {
        return locks.length == 0;
    }

    boolean contains(Object lock) {
        for (Object l : locks) {
            if (l == lock) return true;
        }
        return false;
    }

    /** Whether every lock of this set is in {@code other}. */
    boolean within(LockSet other) {
        if (other == this) return true;
        for (Object l : locks) {
            if (!other.contains(l)) return false;
        }
        return true;
    }

    LockSet with(Object lock) {
        if (contains(lock)) return this;
        Object[] more = java.util.Arrays.copyOf(locks, locks.length + 1);
        more[locks.length] = lock;
        return new LockSet(more);
    }

    LockSet without(Object lock) {
        if (!contains(lock)) return this;
        if (locks.length == 1) return EMPTY;
        Object[] fewer = new Object[locks.length - 1];
        int n = 0;
        for (Object l : locks) {
            if (l != lock) fewer[n++] = l;
        }
        return new LockSet(fewer);
    }

    LockSet intersect(LockSet other) {
        if (other == this) return this;
        if (isEmpty() || other.isEmpty()) return EMPTY;
        Object[] common = new Object[Math.min(locks.length, other.locks.length)];
        int n = 0;
        for (Object l : locks) {
            if (other.contains(l)) common[n++] = l;
        }
        if (n == locks.length) return this;
        return n == 0 ? EMPTY : new LockSet(java.util.Arrays.copyOf(common, n));
    }

    /** The locks' classes, for a report. */
    String describe() {
        StringBuilder sb = new StringBuilder();
        for (Object l : locks) {
            if (sb.length() > 0) sb.append(", ");
            sb.append(l instanceof Class<?> c ? "class " + c.getName() : l.getClass().getName() + "@"
                    + Integer.toHexString(System.identityHashCode(l)));
        }
        return sb.toString();
    }
}
