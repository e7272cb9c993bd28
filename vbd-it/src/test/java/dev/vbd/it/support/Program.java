package dev.vbd.it.support;

import java.io.File;
import java.nio.file.Path;

/** A compiled test program: its class folder, with {@code Main} as entry point. */
public record Program(String name, Path classes) {
    /** The program's class path: its classes and the annotations it may use. */
    public String classPath() {
        return classes + File.pathSeparator + Programs.annotations();
    }

    /** A run of {@code Main args} on {@code jvm}; choose stock or vbd on the result. */
    public Launch on(Jvm jvm, String... args) {
        return new Launch(this, jvm, args);
    }
}
