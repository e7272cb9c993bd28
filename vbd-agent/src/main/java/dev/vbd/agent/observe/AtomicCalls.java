package dev.vbd.agent.observe;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Calls on the JDK's atomics ({@code AtomicReference}, {@code AtomicInteger}, {@code AtomicLong},
 * {@code AtomicBoolean} and the arrays {@code AtomicReferenceArray}, {@code AtomicIntegerArray},
 * {@code AtomicLongArray}), which vbd makes SC in every access mode: each is an SC access of the
 * atomic's value (of an array's element), a read, a write or both. {@link ObservingClassVisitor} sends each call it
 * knows to an {@link Observer} helper of the call's shape with the operation's code ({@link #of}),
 * and the recorder runs it ({@link #apply}) under the lock that orders its record, so that a read is
 * ordered after exactly the writes it could have seen. A weak, plain, opaque, acquire or release mode
 * runs as the volatile one: stronger in the observed run, and what the mode is under vbd.
 */
final class AtomicCalls {
    private AtomicCalls() {}

    /** An operation's kind, its code's last digit. */
    private static final int GET = 0, SET = 1, COMPARE_AND_SET = 2, GET_AND_SET = 3, COMPARE_AND_EXCHANGE = 4,
            GET_AND_ADD = 5, ADD_AND_GET = 6, GET_AND_INCREMENT = 7, INCREMENT_AND_GET = 8, GET_AND_DECREMENT = 9;
    /** {@code decrementAndGet}, numbered apart: a kind of its own past the last digit. */
    private static final int DECREMENT_AND_GET = 100;
    /** Each class's codes start at its base; an array's are its element's plus {@link #ARRAY}. */
    private static final int REFERENCE = 0, INT = 10, LONG = 20, BOOLEAN = 30, ARRAY = 40;

    /** What the visitor puts in place of a call: the helper, its descriptor, and the operation. */
    record Call(String helper, String descriptor, int op) {}

    private static final String PACKAGE = "java/util/concurrent/atomic/";

    /** The helper call for {@code owner.name(descriptor)}, or null where the call is not one of these. */
    static Call of(String owner, String name, String descriptor) {
        if (!owner.startsWith(PACKAGE)) return null;
        int base = switch (owner.substring(PACKAGE.length())) {
            case "AtomicReference" -> REFERENCE;
            case "AtomicInteger" -> INT;
            case "AtomicLong" -> LONG;
            case "AtomicBoolean" -> BOOLEAN;
            case "AtomicReferenceArray" -> ARRAY + REFERENCE;
            case "AtomicIntegerArray" -> ARRAY + INT;
            case "AtomicLongArray" -> ARRAY + LONG;
            default -> -1;
        };
        if (base < 0) return null;
        int kind = kind(name);
        if (kind < 0 || !shapeFits(base, kind, descriptor)) return null;
        // the arguments beside an array's index
        int args = org.objectweb.asm.Type.getArgumentTypes(descriptor).length - (base >= ARRAY ? 1 : 0);
        char returns = descriptor.charAt(descriptor.indexOf(')') + 1);
        String helper;
        if (args == 0) {
            helper = switch (returns) {
                case 'I' -> "atomicGetInt";
                case 'J' -> "atomicGetLong";
                case 'Z' -> "atomicGetBoolean";
                default -> "atomicGetReference";
            };
        } else if (args == 1) {
            helper = returns == 'V' ? "atomicSet" : "atomicUpdate";
        } else {
            helper = returns == 'Z' ? "atomicCompare" : "atomicExchange";
        }
        // the call's own arguments, an array's index first, then the operation and the site
        String helperDescriptor = "(Ljava/lang/Object;" + descriptor.substring(1, descriptor.indexOf(')')) + "II)"
                + descriptor.substring(descriptor.indexOf(')') + 1);
        return new Call(helper, helperDescriptor, kind == DECREMENT_AND_GET ? base + 100 : base + kind);
    }

    private static int kind(String name) {
        return switch (name) {
            case "get", "getPlain", "getOpaque", "getAcquire", "intValue", "longValue" -> GET;
            case "set", "lazySet", "setPlain", "setOpaque", "setRelease" -> SET;
            case "compareAndSet", "weakCompareAndSet", "weakCompareAndSetPlain", "weakCompareAndSetVolatile",
                 "weakCompareAndSetAcquire", "weakCompareAndSetRelease" -> COMPARE_AND_SET;
            case "getAndSet" -> GET_AND_SET;
            case "compareAndExchange", "compareAndExchangeAcquire", "compareAndExchangeRelease" -> COMPARE_AND_EXCHANGE;
            case "getAndAdd" -> GET_AND_ADD;
            case "addAndGet" -> ADD_AND_GET;
            case "getAndIncrement" -> GET_AND_INCREMENT;
            case "incrementAndGet" -> INCREMENT_AND_GET;
            case "getAndDecrement" -> GET_AND_DECREMENT;
            case "decrementAndGet" -> DECREMENT_AND_GET;
            default -> -1;
        };
    }

    /** Whether the descriptor is the one the class declares for the operation (not an overload, not a conversion). */
    private static boolean shapeFits(int base, int kind, String descriptor) {
        String v = switch (base % ARRAY) {
            case REFERENCE -> "Ljava/lang/Object;";
            case INT -> "I";
            case LONG -> "J";
            default -> "Z";
        };
        String index = base >= ARRAY ? "I" : "";
        String expected = switch (kind) {
            case GET -> "(" + index + ")" + v;
            case SET -> "(" + index + v + ")V";
            case COMPARE_AND_SET -> "(" + index + v + v + ")Z";
            case GET_AND_SET, GET_AND_ADD, ADD_AND_GET -> "(" + index + v + ")" + v;
            case COMPARE_AND_EXCHANGE -> "(" + index + v + v + ")" + v;
            default -> "(" + index + ")" + v;
        };
        boolean numeric = base % ARRAY == INT || base % ARRAY == LONG;
        boolean arithmetic = kind >= GET_AND_ADD;
        return descriptor.equals(expected) && (numeric || !arithmetic);
    }

    /** Whether the operation is on an atomic array's element. */
    static boolean isArray(int op) {
        return op % 100 >= ARRAY;
    }

    /** Whether the operation reads the value (every one but a plain set). */
    static boolean reads(int op) {
        return op >= 100 || op % 10 != SET;
    }

    /** Whether the operation, having returned {@code result}, wrote the value. */
    static boolean wrote(int op, Object expected, Object result) {
        if (op >= 100) return true;
        return switch (op % 10) {
            case GET -> false;
            case COMPARE_AND_SET -> (Boolean) result;
            case COMPARE_AND_EXCHANGE -> op % ARRAY == REFERENCE + COMPARE_AND_EXCHANGE ? result == expected : result.equals(expected);
            default -> true;
        };
    }

    /** Runs the operation; an atomic that is null throws as the call would have. */
    @SuppressWarnings("unchecked")
    static Object apply(Object atomic, int op, int i, Object x, Object y) {
        return switch (op) {
            case REFERENCE + GET -> ((AtomicReference<Object>) atomic).get();
            case REFERENCE + SET -> set((AtomicReference<Object>) atomic, x);
            case REFERENCE + COMPARE_AND_SET -> ((AtomicReference<Object>) atomic).compareAndSet(x, y);
            case REFERENCE + GET_AND_SET -> ((AtomicReference<Object>) atomic).getAndSet(x);
            case REFERENCE + COMPARE_AND_EXCHANGE -> ((AtomicReference<Object>) atomic).compareAndExchange(x, y);
            case INT + GET -> ((AtomicInteger) atomic).get();
            case INT + SET -> set((AtomicInteger) atomic, (Integer) x);
            case INT + COMPARE_AND_SET -> ((AtomicInteger) atomic).compareAndSet((Integer) x, (Integer) y);
            case INT + GET_AND_SET -> ((AtomicInteger) atomic).getAndSet((Integer) x);
            case INT + COMPARE_AND_EXCHANGE -> ((AtomicInteger) atomic).compareAndExchange((Integer) x, (Integer) y);
            case INT + GET_AND_ADD -> ((AtomicInteger) atomic).getAndAdd((Integer) x);
            case INT + ADD_AND_GET -> ((AtomicInteger) atomic).addAndGet((Integer) x);
            case INT + GET_AND_INCREMENT -> ((AtomicInteger) atomic).getAndIncrement();
            case INT + INCREMENT_AND_GET -> ((AtomicInteger) atomic).incrementAndGet();
            case INT + GET_AND_DECREMENT -> ((AtomicInteger) atomic).getAndDecrement();
            case INT + 100 -> ((AtomicInteger) atomic).decrementAndGet();
            case LONG + GET -> ((AtomicLong) atomic).get();
            case LONG + SET -> set((AtomicLong) atomic, (Long) x);
            case LONG + COMPARE_AND_SET -> ((AtomicLong) atomic).compareAndSet((Long) x, (Long) y);
            case LONG + GET_AND_SET -> ((AtomicLong) atomic).getAndSet((Long) x);
            case LONG + COMPARE_AND_EXCHANGE -> ((AtomicLong) atomic).compareAndExchange((Long) x, (Long) y);
            case LONG + GET_AND_ADD -> ((AtomicLong) atomic).getAndAdd((Long) x);
            case LONG + ADD_AND_GET -> ((AtomicLong) atomic).addAndGet((Long) x);
            case LONG + GET_AND_INCREMENT -> ((AtomicLong) atomic).getAndIncrement();
            case LONG + INCREMENT_AND_GET -> ((AtomicLong) atomic).incrementAndGet();
            case LONG + GET_AND_DECREMENT -> ((AtomicLong) atomic).getAndDecrement();
            case LONG + 100 -> ((AtomicLong) atomic).decrementAndGet();
            case BOOLEAN + GET -> ((AtomicBoolean) atomic).get();
            case BOOLEAN + SET -> set((AtomicBoolean) atomic, (Boolean) x);
            case BOOLEAN + COMPARE_AND_SET -> ((AtomicBoolean) atomic).compareAndSet((Boolean) x, (Boolean) y);
            case BOOLEAN + GET_AND_SET -> ((AtomicBoolean) atomic).getAndSet((Boolean) x);
            case BOOLEAN + COMPARE_AND_EXCHANGE -> ((AtomicBoolean) atomic).compareAndExchange((Boolean) x, (Boolean) y);
            default -> applyToElement(atomic, op, i, x, y);
        };
    }

    @SuppressWarnings("unchecked")
    private static Object applyToElement(Object atomic, int op, int i, Object x, Object y) {
        return switch (op) {
            case ARRAY + REFERENCE + GET -> ((AtomicReferenceArray<Object>) atomic).get(i);
            case ARRAY + REFERENCE + SET -> set((AtomicReferenceArray<Object>) atomic, i, x);
            case ARRAY + REFERENCE + COMPARE_AND_SET -> ((AtomicReferenceArray<Object>) atomic).compareAndSet(i, x, y);
            case ARRAY + REFERENCE + GET_AND_SET -> ((AtomicReferenceArray<Object>) atomic).getAndSet(i, x);
            case ARRAY + REFERENCE + COMPARE_AND_EXCHANGE -> ((AtomicReferenceArray<Object>) atomic).compareAndExchange(i, x, y);
            case ARRAY + INT + GET -> ((AtomicIntegerArray) atomic).get(i);
            case ARRAY + INT + SET -> set((AtomicIntegerArray) atomic, i, (Integer) x);
            case ARRAY + INT + COMPARE_AND_SET -> ((AtomicIntegerArray) atomic).compareAndSet(i, (Integer) x, (Integer) y);
            case ARRAY + INT + GET_AND_SET -> ((AtomicIntegerArray) atomic).getAndSet(i, (Integer) x);
            case ARRAY + INT + COMPARE_AND_EXCHANGE -> ((AtomicIntegerArray) atomic).compareAndExchange(i, (Integer) x, (Integer) y);
            case ARRAY + INT + GET_AND_ADD -> ((AtomicIntegerArray) atomic).getAndAdd(i, (Integer) x);
            case ARRAY + INT + ADD_AND_GET -> ((AtomicIntegerArray) atomic).addAndGet(i, (Integer) x);
            case ARRAY + INT + GET_AND_INCREMENT -> ((AtomicIntegerArray) atomic).getAndIncrement(i);
            case ARRAY + INT + INCREMENT_AND_GET -> ((AtomicIntegerArray) atomic).incrementAndGet(i);
            case ARRAY + INT + GET_AND_DECREMENT -> ((AtomicIntegerArray) atomic).getAndDecrement(i);
            case ARRAY + INT + 100 -> ((AtomicIntegerArray) atomic).decrementAndGet(i);
            case ARRAY + LONG + GET -> ((AtomicLongArray) atomic).get(i);
            case ARRAY + LONG + SET -> set((AtomicLongArray) atomic, i, (Long) x);
            case ARRAY + LONG + COMPARE_AND_SET -> ((AtomicLongArray) atomic).compareAndSet(i, (Long) x, (Long) y);
            case ARRAY + LONG + GET_AND_SET -> ((AtomicLongArray) atomic).getAndSet(i, (Long) x);
            case ARRAY + LONG + COMPARE_AND_EXCHANGE -> ((AtomicLongArray) atomic).compareAndExchange(i, (Long) x, (Long) y);
            case ARRAY + LONG + GET_AND_ADD -> ((AtomicLongArray) atomic).getAndAdd(i, (Long) x);
            case ARRAY + LONG + ADD_AND_GET -> ((AtomicLongArray) atomic).addAndGet(i, (Long) x);
            case ARRAY + LONG + GET_AND_INCREMENT -> ((AtomicLongArray) atomic).getAndIncrement(i);
            case ARRAY + LONG + INCREMENT_AND_GET -> ((AtomicLongArray) atomic).incrementAndGet(i);
            case ARRAY + LONG + GET_AND_DECREMENT -> ((AtomicLongArray) atomic).getAndDecrement(i);
            case ARRAY + LONG + 100 -> ((AtomicLongArray) atomic).decrementAndGet(i);
            default -> throw new IllegalArgumentException("no atomic operation " + op);
        };
    }

    private static Object set(AtomicReference<Object> a, Object v) {
        a.set(v);
        return null;
    }

    private static Object set(AtomicInteger a, int v) {
        a.set(v);
        return null;
    }

    private static Object set(AtomicLong a, long v) {
        a.set(v);
        return null;
    }

    private static Object set(AtomicBoolean a, boolean v) {
        a.set(v);
        return null;
    }

    private static Object set(AtomicReferenceArray<Object> a, int i, Object v) {
        a.set(i, v);
        return null;
    }

    private static Object set(AtomicIntegerArray a, int i, int v) {
        a.set(i, v);
        return null;
    }

    private static Object set(AtomicLongArray a, int i, long v) {
        a.set(i, v);
        return null;
    }
}
