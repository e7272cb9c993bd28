package dev.vbd.demo;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Dekker's core (store buffering): thread 1 does {@code x = 1; r1 = y}, thread 2 does
 * {@code y = 1; r2 = x}. Sequential consistency forbids {@code r1 == 0 && r2 == 0}; x86's store
 * buffer allows it, so Dekker's mutual exclusion breaks. Both threads walk the same batch of
 * fresh cells, released together by a spinning barrier so that they meet on the same cells.
 */
final class Dekker {
    static final class Cell {
        int x, y, r1, r2;
    }

    private Dekker() {}

    static String run(int trials) throws Exception {
        int batch = 1024;
        int rounds = Math.max(1, trials / batch);
        Cell[][] rounds0 = new Cell[2][batch];
        AtomicInteger go = new AtomicInteger(-1);
        AtomicInteger done = new AtomicInteger();
        Thread t1 = new Thread(() -> {
            for (int r = 0; r < rounds; r++) {
                while (go.get() != r) Thread.onSpinWait();
                Cell[] cells = rounds0[r & 1];
                for (Cell c : cells) { c.x = 1; c.r1 = c.y; }
                done.incrementAndGet();
            }
        });
        t1.setDaemon(true);
        t1.start();
        long forbidden = 0;
        for (int r = 0; r < rounds; r++) {
            Cell[] cells = rounds0[r & 1];
            for (int i = 0; i < batch; i++) cells[i] = new Cell();
            go.set(r);
            for (Cell c : cells) { c.y = 1; c.r2 = c.x; }
            while (done.get() != r + 1) Thread.onSpinWait();
            for (Cell c : cells) if (c.r1 == 0 && c.r2 == 0) forbidden++;
        }
        t1.join();
        long total = (long) rounds * batch;
        return "dekker: " + forbidden + " of " + total + " trials saw r1=0 and r2=0 (forbidden under SC)";
    }
}
