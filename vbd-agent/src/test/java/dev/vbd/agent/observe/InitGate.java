package dev.vbd.agent.observe;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Holds a class initialiser of {@link ObserverTest}'s open until the test lets it finish. A class of
 * its own, outside the test's nested classes, so that the instrumenting loader leaves it to its
 * parent and the initialiser and the test share it.
 */
public final class InitGate {
    private static volatile CountDownLatch entered;
    private static volatile CountDownLatch open;

    private InitGate() {}

    static void arm() {
        entered = new CountDownLatch(1);
        open = new CountDownLatch(1);
    }

    /** Called by the initialiser: says it is running, then waits until it may end. */
    public static void reached() throws InterruptedException {
        entered.countDown();
        if (!open.await(1, TimeUnit.MINUTES)) throw new IllegalStateException("the gate was never opened");
    }

    static void awaitEntered() throws InterruptedException {
        if (!entered.await(1, TimeUnit.MINUTES)) throw new IllegalStateException("the initialiser never reached the gate");
    }

    static void open() {
        open.countDown();
    }
}
