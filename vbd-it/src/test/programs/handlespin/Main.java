import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * A spin loop whose only read of the shared array element is inside a method handle, which
 * {@code java.lang.invoke} compiles into a class of its own with a plain {@code iaload} or
 * {@code aaload}; the main thread sets the element after a second. Stock C2 may inline the handle
 * and hoist the load out of the loop, which then never ends; with the element access fenced it
 * must end. The program reports instead of hanging, as the {@code spin} program does.
 *
 * <p>Usage: {@code Main VARIANT WAIT_MILLIS} with VARIANT one of
 * <ul>
 * <li>{@code spreader}: {@code isSet.asSpreader(int[].class, 1)} over {@code int[] flag};</li>
 * <li>{@code spread-invoker}: {@code MethodHandles.spreadInvoker} over {@code Object[] args}, calling
 *     {@code isPresent(Object)} (an {@code int} argument would be unboxed by a call the loop keeps);</li>
 * <li>{@code element-getter}: {@code arrayElementGetter(int[].class)} filtered by {@code isSet}: the
 *     combined handle calls the getter, which runs {@code MethodHandleImpl.ArrayAccessor}'s method,
 *     rewritten with the JDK; it ends under vbd with generated code fenced or not, a control;</li>
 * </ul>
 * prints {@code handlespin VARIANT ended} or {@code handlespin VARIANT still spinning}.
 */
public class Main {
    static final int[] flag = new int[1];
    static final Object[] args = {null};

    static boolean isSet(int v) { return v != 0; }

    static boolean isPresent(Object v) { return v != null; }

    static final MethodHandle IS_SET;
    static final MethodHandle IS_PRESENT;
    static final MethodHandle SPREAD;
    static final MethodHandle INVOKER;
    static final MethodHandle GET;

    static {
        try {
            IS_SET = MethodHandles.lookup().findStatic(Main.class, "isSet", MethodType.methodType(boolean.class, int.class));
            IS_PRESENT = MethodHandles.lookup().findStatic(Main.class, "isPresent", MethodType.methodType(boolean.class, Object.class));
            SPREAD = IS_SET.asSpreader(int[].class, 1);
            INVOKER = MethodHandles.spreadInvoker(IS_PRESENT.type(), 0);
            GET = MethodHandles.filterReturnValue(MethodHandles.arrayElementGetter(int[].class), IS_SET);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    static void spinSpreader() throws Throwable { while (!(boolean) SPREAD.invokeExact(flag)) { } }

    static void spinSpreadInvoker() throws Throwable { while (!(boolean) INVOKER.invokeExact(IS_PRESENT, args)) { } }

    static void spinElementGetter() throws Throwable { while (!(boolean) GET.invokeExact(flag, 0)) { } }

    interface Loop { void run() throws Throwable; }

    public static void main(String[] a) throws InterruptedException {
        String variant = a[0];
        long waitMillis = Long.parseLong(a[1]);
        Loop loop;
        switch (variant) {
            case "spreader": loop = Main::spinSpreader; break;
            case "spread-invoker": loop = Main::spinSpreadInvoker; break;
            case "element-getter": loop = Main::spinElementGetter; break;
            default: throw new IllegalArgumentException("unknown variant '" + variant + "'");
        }
        Thread spinner = new Thread(() -> {
            try {
                loop.run();
            } catch (Throwable t) {
                t.printStackTrace();
                Runtime.getRuntime().halt(2);
            }
        }, "spinner");
        spinner.setDaemon(true);
        spinner.start();
        // long enough for the loop to be OSR-compiled by C2 before the element changes
        Thread.sleep(1000);
        if (variant.equals("spread-invoker")) args[0] = "set"; else flag[0] = 1;
        spinner.join(waitMillis);
        System.out.println("handlespin " + variant + (spinner.isAlive() ? " still spinning" : " ended"));
        System.out.flush();
        // a hoisted loop never reaches a point where the JVM could stop it cleanly
        Runtime.getRuntime().halt(0);
    }
}
