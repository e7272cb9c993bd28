package dev.vbd.apps;

/** A trivial main: what JVM startup alone costs, stock and under vbd. */
public final class Hello {
    public static void main(String[] args) {
        System.out.println("hello");
    }
}
