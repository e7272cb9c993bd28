package dev.vbd.agent;

import dev.vbd.core.ClassBytesSource;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ResolvedModule;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;

/**
 * The class files the prepared JDK itself holds: those of the runtime image's modules, whichever
 * of the JDK's loaders defines them (jdk.compiler's is the application class loader). A program's
 * own modules, on the module path, are in the boot layer too, but come from elsewhere than the
 * image. A rewriter checks a marker against these bytes ({@code ClassRewriter#jdkClasses}).
 *
 * <p>No lambdas or streams: in a runtime image this runs before {@code main}.
 */
final class JdkClassBytes implements ClassBytesSource {
    /** Package (internal form) to the image's module that holds it; built on first use. */
    private volatile Map<String, Module> packages;

    @Override
    public byte[] find(String internalName) {
        int slash = internalName.lastIndexOf('/');
        if (slash < 0) return null;
        Module m = packages().get(internalName.substring(0, slash));
        if (m == null) return null;
        // class files are never encapsulated: any module may read them
        try (InputStream in = m.getResourceAsStream(internalName + ".class")) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private Map<String, Module> packages() {
        Map<String, Module> p = packages;
        if (p != null) return p;
        Map<String, Module> out = new HashMap<>();
        for (Module m : ModuleLayer.boot().modules()) {
            ResolvedModule resolved = ModuleLayer.boot().configuration().findModule(m.getName()).orElse(null);
            URI where = resolved == null ? null : resolved.reference().location().orElse(null);
            if (where == null || !"jrt".equals(where.getScheme())) continue;
            for (String pkg : m.getPackages()) out.put(pkg.replace('.', '/'), m);
        }
        packages = out;
        return out;
    }
}
