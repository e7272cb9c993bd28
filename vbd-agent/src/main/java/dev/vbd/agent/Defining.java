package dev.vbd.agent;

import org.objectweb.asm.ClassReader;

import java.util.ArrayDeque;

/**
 * The classes this thread is rewriting on their way to the JVM, innermost last. Only the
 * superclass of the innermost one may be loaded on this thread while it is rewritten: the JVM loads
 * it next anyway, on this thread, under the same locks. Loading any other class here could define
 * a class this thread is already defining further up its stack a second time, or wait for a lock
 * another thread holds while it waits for one this thread holds.
 *
 * <p>No lambdas: in a runtime image this runs before {@code main}.
 */
final class Defining {
    private static final class Frame {
        final byte[] bytes;
        String superName;

        Frame(byte[] bytes) {
            this.bytes = bytes;
        }
    }

    private static final ThreadLocal<ArrayDeque<Frame>> STACK = new ThreadLocal<ArrayDeque<Frame>>() {
        @Override
        protected ArrayDeque<Frame> initialValue() {
            return new ArrayDeque<>();
        }
    };

    private Defining() {}

    static void enter(byte[] bytes) {
        STACK.get().push(new Frame(bytes));
    }

    static void exit() {
        STACK.get().pop();
    }

    /** Whether {@code internalName} is the superclass of the class this thread rewrites innermost. */
    static boolean nextSuperclass(String internalName) {
        Frame f = STACK.get().peek();
        if (f == null) return false;
        if (f.superName == null) {
            try {
                String s = new ClassReader(f.bytes).getSuperName();
                f.superName = s == null ? "" : s;
            } catch (RuntimeException e) {
                f.superName = "";
            }
        }
        return f.superName.equals(internalName);
    }
}
