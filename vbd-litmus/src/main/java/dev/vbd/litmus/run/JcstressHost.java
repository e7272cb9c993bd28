package dev.vbd.litmus.run;

import org.openjdk.jcstress.JCStress;
import org.openjdk.jcstress.Options;
import org.openjdk.jcstress.vm.VMSupport;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code JcstressHost [--cpus N] [--default-locking] -- [jcstress options]}: jcstress's host JVM,
 * as {@code org.openjdk.jcstress.Main} runs it, with two changes jcstress 0.16 has no option for.
 * <ul>
 * <li>{@code --cpus N}: the host is told the machine has N CPUs. jcstress schedules each actor on a
 * core of its own: {@code -c} may not exceed the CPUs it counts, and its scheduler takes the core
 * layout from sysfs. Two of its internals make it count more: the CPU count it caches after measuring
 * it ({@code VMSupport.HOT_CPUS}) and the OS check before it reads sysfs, which, failing, leaves it a
 * fake layout of that many single-thread cores (and no thread affinity). Only this host JVM is told
 * (after the JDK has read the real OS name for starting processes); the forks it starts see the real
 * machine, and their actors share its cores under the OS scheduler.</li>
 * <li>{@code --default-locking}: each test runs once, in the JVM's default locking, where jcstress
 * would run it twice on a JVM that still has biased locking (JDK 17), with
 * {@code -XX:+UseBiasedLocking} and {@code -XX:-UseBiasedLocking}. jcstress detects biased locking
 * ({@code VMSupport.BIASED_LOCKING_AVAILABLE}) before it asks its options whether to split
 * compilation, and mixes both settings in right after; the flag is cleared in between.</li>
 * </ul>
 */
final class JcstressHost {
    private JcstressHost() {}

    public static void main(String[] args) throws Exception {
        int cpus = 0;
        boolean defaultLocking = false;
        int i = 0;
        for (; i < args.length && !args[i].equals("--"); i++) {
            switch (args[i]) {
                case "--cpus" -> cpus = Integer.parseInt(args[++i]);
                case "--default-locking" -> defaultLocking = true;
                default -> throw new IllegalArgumentException("JcstressHost: unknown option " + args[i]);
            }
        }
        String[] jcstressArgs = Arrays.copyOfRange(args, Math.min(i + 1, args.length), args.length);
        if (cpus > 0) oversubscribe(cpus);
        Options options = defaultLocking ? new DefaultLockingOptions(jcstressArgs) : new Options(jcstressArgs);
        if (!options.parse()) System.exit(1);
        new JCStress(options).run();
    }

    /** The jcstress options a {@link Jcstress} run passes after {@code --} to this host. */
    static List<String> command(int cpus, boolean defaultLocking) {
        List<String> cmd = new ArrayList<>(List.of(JcstressHost.class.getName()));
        if (cpus > 0) cmd.addAll(List.of("--cpus", Integer.toString(cpus)));
        if (defaultLocking) cmd.add("--default-locking");
        cmd.add("--");
        return cmd;
    }

    private static void oversubscribe(int cpus) throws ReflectiveOperationException {
        staticField("HOT_CPUS").setInt(null, cpus);
        // the JDK picks how it starts processes from os.name, once: let it do so first
        Class.forName("java.lang.ProcessImpl", true, null);
        // any name without "linux" (or "win") in it
        System.setProperty("os.name", "vbd-oversubscribed");
    }

    private static Field staticField(String name) throws NoSuchFieldException {
        Field f = VMSupport.class.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }

    private static final class DefaultLockingOptions extends Options {
        DefaultLockingOptions(String[] args) {
            super(args);
        }

        @Override
        public boolean isSplitCompilation() {
            try {
                staticField("BIASED_LOCKING_AVAILABLE").setBoolean(null, false);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("this jcstress keeps no BIASED_LOCKING_AVAILABLE flag", e);
            }
            return super.isSplitCompilation();
        }
    }
}
