package dev.vbd.litmus.run;

import org.openjdk.jcstress.Main;
import org.openjdk.jcstress.vm.VMSupport;

import java.lang.reflect.Field;
import java.util.Arrays;

/**
 * {@code Oversubscribed CPUS [jcstress options]}: jcstress's host, told the machine has CPUS CPUs.
 * jcstress 0.16 schedules each actor on a core of its own and has no option to do otherwise: {@code -c}
 * may not exceed the CPUs it counts, and its scheduler takes the core layout from sysfs. Two of its
 * internals make it count more: the CPU count it caches after measuring it ({@code VMSupport.HOT_CPUS})
 * and the OS check before it reads sysfs, which, failing, leaves it a fake layout of that many
 * single-thread cores (and no thread affinity). Only this host JVM is told (after the JDK has read the
 * real OS name for starting processes); the forks it starts see the real machine, and their actors
 * share its cores under the OS scheduler.
 */
final class Oversubscribed {
    private Oversubscribed() {}

    public static void main(String[] args) throws Exception {
        int cpus = Integer.parseInt(args[0]);
        Field hot = VMSupport.class.getDeclaredField("HOT_CPUS");
        hot.setAccessible(true);
        hot.setInt(null, cpus);
        // the JDK picks how it starts processes from os.name, once: let it do so first
        Class.forName("java.lang.ProcessImpl", true, null);
        // any name without "linux" (or "win") in it
        System.setProperty("os.name", "vbd-oversubscribed");
        Main.main(Arrays.copyOfRange(args, 1, args.length));
    }
}
