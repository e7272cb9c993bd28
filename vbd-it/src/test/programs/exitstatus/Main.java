/** Leaves with System.exit(42) from a non-main thread, after a shutdown hook has run. */
public class Main {
    public static void main(String[] args) throws Exception {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("shutdown hook ran")));
        System.out.println("exiting with " + args[0]);
        Thread t = new Thread(() -> System.exit(Integer.parseInt(args[0])));
        t.start();
        t.join();
        System.out.println("not reached");
    }
}
