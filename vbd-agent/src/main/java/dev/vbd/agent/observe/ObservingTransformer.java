package dev.vbd.agent.observe;

import dev.vbd.agent.ProgramClasses;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;

/**
 * Observes the program's own classes, and of the JDK's (the boot and platform loaders' classes, and
 * the JDK modules the application loader defines) those that hold a candidate ({@link JdkClasses});
 * never vbd's. A class that cannot be observed runs as it is and is reported. What the JDK code this
 * runs (ASM's, the recorder's) does on the way is the observer's own, not recorded.
 */
final class ObservingTransformer implements ClassFileTransformer {
    private final Recorder recorder;
    private final JdkClasses jdk;

    ObservingTransformer(Recorder recorder, JdkClasses jdk) {
        this.recorder = recorder;
        this.jdk = jdk;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
                            ProtectionDomain domain, byte[] bytes) {
        if (bytes == null || className == null) return null;
        // a program class's retransformation is someone else's (a debugger's): the observer's calls are in it already
        if (!(redefined == null && ProgramClasses.isProgram(module, loader, className)) && !jdk.watches(module, loader, className)) return null;
        boolean wasBusy = recorder.hold();
        try {
            ClassReader reader = new ClassReader(bytes);
            // COMPUTE_MAXS: the calls put in need operand stack; no frame changes but the handler's own
            ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
            boolean finalizable = ObservingClassVisitor.declaresFinalizer(reader);
            reader.accept(new ObservingClassVisitor(writer, recorder, finalizable), ClassReader.EXPAND_FRAMES);
            recorder.observed();
            return writer.toByteArray();
        } catch (Throwable t) {
            recorder.unobserved(className.replace('/', '.'), t);
            return null;
        } finally {
            recorder.release(wasBusy);
        }
    }
}
