import dev.vbd.Relaxed;

/**
 * {@code while (!flag) {}} on a plain field, with the main thread setting the flag after a
 * second. Stock C2 may hoist the load out of the loop, which then never ends; with the field
 * volatile it must end. The program reports instead of hanging: the spinner is a daemon
 * thread, and the main thread waits a bounded time for it before leaving.
 *
 * <p>Usage: {@code Main VARIANT WAIT_MILLIS} with VARIANT one of static, instance,
 * relaxed-static, relaxed-instance; prints {@code spin VARIANT ended} or
 * {@code spin VARIANT still spinning}.
 */
public class Main {
    static boolean staticFlag;
    static final Flag shared = new Flag();

    static final class Flag { boolean set; }

    static void spinStatic() { while (!staticFlag) { } }

    static void spinInstance(Flag f) { while (!f.set) { } }

    @Relaxed("litmus: the loop must be hoisted again")
    static void spinStaticRelaxed() { while (!staticFlag) { } }

    @Relaxed("litmus: the loop must be hoisted again")
    static void spinInstanceRelaxed(Flag f) { while (!f.set) { } }

    public static void main(String[] args) throws InterruptedException {
        String variant = args[0];
        long waitMillis = Long.parseLong(args[1]);
        Runnable loop;
        switch (variant) {
            case "static": loop = Main::spinStatic; break;
            case "instance": loop = () -> spinInstance(shared); break;
            case "relaxed-static": loop = Main::spinStaticRelaxed; break;
            case "relaxed-instance": loop = () -> spinInstanceRelaxed(shared); break;
            default: throw new IllegalArgumentException("unknown variant '" + variant + "'");
        }
        Thread spinner = new Thread(loop, "spinner");
        spinner.setDaemon(true);
        spinner.start();
        // long enough for the loop to be OSR-compiled by C2 before the flag changes
        Thread.sleep(1000);
        if (variant.endsWith("static")) staticFlag = true; else shared.set = true;
        spinner.join(waitMillis);
        System.out.println("spin " + variant + (spinner.isAlive() ? " still spinning" : " ended"));
        System.out.flush();
        // a hoisted loop never reaches a point where the JVM could stop it cleanly
        Runtime.getRuntime().halt(0);
    }
}
