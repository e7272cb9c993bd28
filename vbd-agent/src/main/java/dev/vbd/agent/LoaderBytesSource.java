package dev.vbd.agent;

import dev.vbd.core.ClassBytesSource;

import java.io.IOException;
import java.io.InputStream;

/**
 * Class bytes as a class loader would find them: the original, not-yet-rewritten bytes for
 * application classes, and the prepared (marked) bytes for the JDK's own classes.
 */
final class LoaderBytesSource implements ClassBytesSource {
    private final ClassLoader loader;

    LoaderBytesSource(ClassLoader loader) {
        this.loader = loader;
    }

    @Override
    public byte[] find(String internalName) {
        String resource = internalName + ".class";
        try (InputStream in = loader != null ? loader.getResourceAsStream(resource)
                : ClassLoader.getSystemResourceAsStream(resource)) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
