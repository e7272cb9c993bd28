package dev.vbd.it.support;

import java.nio.file.Path;

/** A JDK under test, named by its {@code java} launcher and its feature release. */
public record Jvm(int feature, Path launcher, String version) {
    @Override
    public String toString() {
        return "JDK " + version + " (" + launcher + ")";
    }
}
