package dev.vbd.agent;

import java.security.CodeSource;
import java.security.ProtectionDomain;

/**
 * vbd's own classes beside a program: those of the agent's jar (vbd and its relocated ASM),
 * defined by the class loader that loaded the agent, with the jar's code source. They are known by
 * where they come from, which a program's classes cannot share, and never by their names, which a
 * program may copy. In a runtime image vbd's classes live in java.base and load from the image,
 * never through the define path.
 */
final class OwnClasses {
    private final ClassLoader loader;
    /** The jar's location, or null where it cannot be known: then no class counts as vbd's own. */
    private final String location;

    private OwnClasses(ClassLoader loader, String location) {
        this.loader = loader;
        this.location = location;
    }

    /** The classes of the jar this class came from. */
    static OwnClasses ofAgent() {
        return new OwnClasses(OwnClasses.class.getClassLoader(), location(OwnClasses.class.getProtectionDomain()));
    }

    /** Whether a class that {@code definer} defines in {@code domain} is one of the agent jar's. */
    boolean own(ClassLoader definer, ProtectionDomain domain) {
        if (location == null || definer != loader) return false;
        return location.equals(location(domain));
    }

    boolean own(Class<?> c) {
        return own(c.getClassLoader(), c.getProtectionDomain());
    }

    private static String location(ProtectionDomain domain) {
        CodeSource source = domain == null ? null : domain.getCodeSource();
        // the text, not URL.equals, which may resolve host names
        return source == null || source.getLocation() == null ? null : source.getLocation().toExternalForm();
    }
}
