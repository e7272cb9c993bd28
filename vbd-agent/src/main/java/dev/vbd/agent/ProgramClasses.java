package dev.vbd.agent;

/**
 * The classes an observing mode of the agent watches on a stock JDK: those a program's class
 * loader defines outside the JDK's modules, never vbd's own.
 */
public final class ProgramClasses {
    private ProgramClasses() {}

    public static boolean isProgram(Module module, ClassLoader loader, String className) {
        if (loader == null || loader == ClassLoader.getPlatformClassLoader()) return false;
        if (module != null && module.isNamed() && module.getLayer() == ModuleLayer.boot()) return false;
        return !className.startsWith("dev/vbd/agent/") && !className.startsWith("dev/vbd/core/")
                && !className.startsWith("dev/vbd/cli/") && !className.startsWith("dev/vbd/shaded/");
    }
}
