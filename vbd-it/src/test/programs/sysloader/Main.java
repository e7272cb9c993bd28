/**
 * Usage: {@code java -Djava.system.class.loader=SbLoader Main TRIALS}. Prints
 * {@code SB shape=system-class-loader trials=N forbidden=F outcomes=00:a,01:b,10:c,11:d}, or fails when
 * SbLoader is not the system class loader.
 */
public class Main {
    public static void main(String[] args) throws Exception {
        ClassLoader system = ClassLoader.getSystemClassLoader();
        if (!(system instanceof SbLoader)) {
            throw new IllegalStateException("the system class loader is " + system + ", not SbLoader");
        }
        long[] c = SbLoader.storeBuffering(Long.parseLong(args[0]));
        System.out.printf("SB shape=system-class-loader trials=%d forbidden=%d outcomes=00:%d,01:%d,10:%d,11:%d%n",
                c[0] + c[1] + c[2] + c[3], c[0], c[0], c[1], c[2], c[3]);
    }
}
