package jdk.internal.loader;

/**
 * What {@code java.lang.ClassLoader.appendToClassPathForInstrumentation}, a method the prepared
 * JDK adds, does. At start-up the JVM appends every {@code -javaagent} jar to the system class
 * loader's search path by calling that method on the system class loader, and aborts the JVM
 * when a custom one ({@code -Djava.system.class.loader}) does not define it. A custom system
 * class loader that does not define it inherits this one, which appends the path to the
 * built-in application class loader: its usual parent, through which it finds the agent.
 */
public final class VbdClassPath {
    private VbdClassPath() {}

    public static void append(String path) {
        ((BuiltinClassLoader) ClassLoaders.appClassLoader()).appendClassPath(path);
    }
}
