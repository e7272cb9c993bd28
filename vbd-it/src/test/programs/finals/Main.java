/**
 * Spin loops on final fields written where final semantics do not cover the write: javac never
 * emits these writes, but the JVM allows them, and bytecode generators and weavers emit them.
 * The test makes the fields final in the class files javac wrote (and, for {@code Pre53}, the class
 * file version 52), so that these sources compile.
 *
 * <p>Usage: {@code Main VARIANT WAIT_MILLIS}, VARIANT one of pre53-instance (a method of a class
 * file older than 53 writes its instance final), pre53-static (its static final), other-object (a
 * constructor writes the final of another, already shared object), this-call (a constructor calls
 * {@code this(...)}, whose body publishes {@code this}, then stores its final), superclass (a plain
 * field of a superclass first loaded while vbd judged its subclass's final, a class vbd must still
 * rewrite); prints {@code spin VARIANT ended} or {@code spin VARIANT still spinning}.
 */
public class Main {
    static volatile Pre53 pre53;
    static volatile Other other;

    static void pause() {
        try {
            Thread.sleep(1000); // long enough for the loop to be OSR-compiled by C2 before the write
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void spinInstance(Pre53 p) { while (p.x() == 0) { } }

    static void spinStatic() { while (Pre53.s() == 0) { } }

    static void spinOther(Other o) { while (o.x() != 2) { } }

    static void spinThisCall(ThisCall t) { while (t.x() == 0) { } }

    static void spinSuper(Sub s) { while (s.flag == 0) { } }

    public static void main(String[] args) throws InterruptedException {
        String variant = args[0];
        long waitMillis = Long.parseLong(args[1]);
        Runnable loop;
        Runnable write;
        switch (variant) {
            case "pre53-instance": {
                Pre53 p = new Pre53(0);
                loop = () -> spinInstance(p);
                write = () -> { pause(); p.set(1); };
                break;
            }
            case "pre53-static":
                loop = Main::spinStatic;
                write = () -> { pause(); Pre53.setS(1); };
                break;
            case "other-object": {
                Other o = new Other(0);
                loop = () -> spinOther(o);
                write = () -> { pause(); new Other(o); };
                break;
            }
            case "this-call":
                loop = () -> {
                    while (ThisCall.last == null) Thread.onSpinWait();
                    spinThisCall((ThisCall) ThisCall.last);
                };
                write = () -> new ThisCall(1);
                break;
            case "superclass": {
                Sub s = new Sub(1);
                loop = () -> spinSuper(s);
                write = () -> { pause(); s.flag = 1; };
                break;
            }
            default:
                throw new IllegalArgumentException("unknown variant '" + variant + "'");
        }
        Thread spinner = new Thread(loop, "spinner");
        spinner.setDaemon(true);
        spinner.start();
        Thread writer = new Thread(write, "writer");
        writer.setDaemon(true);
        writer.start();
        writer.join();
        spinner.join(waitMillis);
        System.out.println("spin " + variant + (spinner.isAlive() ? " still spinning" : " ended"));
        System.out.flush();
        // a hoisted loop never reaches a point where the JVM could stop it cleanly; an ended one
        // exits normally, so that shutdown hooks (the verifier's report) run
        if (spinner.isAlive()) Runtime.getRuntime().halt(0);
        System.exit(0);
    }
}
