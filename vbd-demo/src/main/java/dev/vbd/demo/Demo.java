package dev.vbd.demo;

/**
 * The paper's two examples of missing-annotation bugs, with no {@code volatile} anywhere.
 * Prints one line per example, in a form the {@code vbd demo} command compares.
 */
public final class Demo {
    private Demo() {}

    public static void main(String[] args) throws Exception {
        int trials = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        System.out.println(Publication.run());
        System.out.println(Dekker.run(trials));
    }
}
