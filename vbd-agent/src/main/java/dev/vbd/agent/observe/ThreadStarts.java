package dev.vbd.agent.observe;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.Map;
import java.util.Set;

/**
 * Every thread's start, wherever it is called: {@code Thread.start()} itself tells the observer, so
 * a thread that JDK code starts (an executor's worker) is ordered after what its starter did before,
 * as one the program starts is. A start in watched code is also seen at its call site, which the
 * observer's tests load without an agent; releasing twice orders nothing more. Nothing else of
 * {@code Thread} is watched: the observer runs on it.
 */
final class ThreadStarts implements ClassFileTransformer {
    private final Recorder recorder;

    private ThreadStarts(Recorder recorder) {
        this.recorder = recorder;
    }

    /** Retransforms {@code Thread}, after letting {@code java.base} read the observer's module; a failure is reported. */
    static void install(Instrumentation inst, Recorder recorder) {
        try {
            inst.redefineModule(Thread.class.getModule(), Set.of(Observer.class.getModule()), Map.of(), Map.of(), Set.of(), Map.of());
            inst.addTransformer(new ThreadStarts(recorder), true);
            inst.retransformClasses(Thread.class);
        } catch (Throwable t) {
            recorder.unobserved(Thread.class.getName(), t);
        }
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
                            ProtectionDomain domain, byte[] bytes) {
        if (redefined != Thread.class || bytes == null) return null;
        boolean wasBusy = recorder.hold();
        try {
            ClassReader reader = new ClassReader(bytes);
            ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
            reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
                @Override
                public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                    MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
                    // start(), and on newer JDKs the start(ThreadContainer) it calls, which executors may call themselves
                    if (!name.equals("start") || !descriptor.endsWith(")V") || (access & Opcodes.ACC_STATIC) != 0) return mv;
                    return new MethodVisitor(Opcodes.ASM9, mv) {
                        @Override
                        public void visitCode() {
                            super.visitCode();
                            super.visitVarInsn(Opcodes.ALOAD, 0);
                            super.visitMethodInsn(Opcodes.INVOKESTATIC, Type.getInternalName(Observer.class), "starting",
                                    "(Ljava/lang/Object;)V", false);
                        }
                    };
                }
            }, 0);
            return writer.toByteArray();
        } catch (Throwable t) {
            recorder.unobserved(Thread.class.getName(), t);
            return null;
        } finally {
            recorder.release(wasBusy);
        }
    }
}
