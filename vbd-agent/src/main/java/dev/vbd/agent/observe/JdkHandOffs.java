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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The orderings between threads that the JDK makes in its own code, told to the observer where
 * they happen, as {@code java.util.concurrent} documents them:
 * <ul>
 * <li>a thread's start: {@code Thread.start()} itself, so a thread that JDK code starts (an
 * executor's worker) is ordered after what its starter did before, as one the program starts is;
 * <li>a task given to a {@code ThreadPoolExecutor} (or scheduled on a {@code
 * ScheduledThreadPoolExecutor}) and the worker's run of it, however the task reached the worker:
 * at its start, or through the pool's queue;
 * <li>a {@code FutureTask}'s completion (its result set, its exception, its cancellation) and the
 * {@code get()} that reports it.
 * </ul>
 * Only these methods change: the observer runs on the rest of these classes. A start in watched
 * code is also seen at its call site, which the observer's tests load without an agent; releasing
 * twice orders nothing more.
 */
final class JdkHandOffs implements ClassFileTransformer {
    private static final String OBSERVER = Type.getInternalName(Observer.class);

    /**
     * Per class (internal name): each method's visitor, telling the observer, or the one given. Built
     * as the agent starts: linking a lambda while a class is being transformed would load classes
     * from within the transformer.
     */
    private static final Map<String, Rewrite> REWRITES = Map.of(
            "java/lang/Thread", (mv, access, name, descriptor) ->
                    // start(), and on newer JDKs the start(ThreadContainer) it calls, which executors may call themselves
                    name.equals("start") && descriptor.endsWith(")V") && (access & Opcodes.ACC_STATIC) == 0
                            ? new AtEntry(mv, 0, "starting") : mv,
            "java/util/concurrent/ThreadPoolExecutor", (mv, access, name, descriptor) -> {
                if (name.equals("execute") && descriptor.equals("(Ljava/lang/Runnable;)V")) return new AtEntry(mv, 1, "handingOver");
                return name.equals("runWorker") ? new TaskRuns(mv) : mv;
            },
            // a scheduled task goes to the queue here, not through execute; a periodic one again after each run
            "java/util/concurrent/ScheduledThreadPoolExecutor", (mv, access, name, descriptor) ->
                    (name.equals("delayedExecute") || name.equals("reExecutePeriodic"))
                            && descriptor.equals("(Ljava/util/concurrent/RunnableScheduledFuture;)V")
                            ? new AtEntry(mv, 1, "handingOver") : mv,
            // whoever completes a future calls finishCompletion once, after its state says so; get() reads
            // that state, then report(state) gives the result or throws
            "java/util/concurrent/FutureTask", (mv, access, name, descriptor) -> {
                if (name.equals("finishCompletion") && descriptor.equals("()V")) return new AtEntry(mv, 0, "handingOver");
                if (name.equals("report") && descriptor.equals("(I)Ljava/lang/Object;")) return new AtEntry(mv, 0, "takingOver");
                return mv;
            });

    private final Recorder recorder;

    private JdkHandOffs(Recorder recorder) {
        this.recorder = recorder;
    }

    /**
     * Lets {@code java.base} read the observer's module, adds the transformer, and retransforms the
     * classes of {@link #REWRITES} already loaded; a failure is reported.
     */
    static void install(Instrumentation inst, Recorder recorder) {
        try {
            inst.redefineModule(Thread.class.getModule(), Set.of(Observer.class.getModule()), Map.of(), Map.of(), Set.of(), Map.of());
            inst.addTransformer(new JdkHandOffs(recorder), true);
        } catch (Throwable t) {
            recorder.unobserved(Thread.class.getName(), t);
            return;
        }
        List<Class<?>> loaded = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (c.getClassLoader() == null && REWRITES.containsKey(c.getName().replace('.', '/'))) loaded.add(c);
        }
        for (Class<?> c : loaded) {
            try {
                inst.retransformClasses(c);
            } catch (Throwable t) {
                recorder.unobserved(c.getName(), t);
            }
        }
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
                            ProtectionDomain domain, byte[] bytes) {
        Rewrite rewrite = loader == null && className != null ? REWRITES.get(className) : null;
        if (rewrite == null || bytes == null) return null;
        boolean wasBusy = recorder.hold();
        try {
            ClassReader reader = new ClassReader(bytes);
            ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
            reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
                @Override
                public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                    return rewrite.of(super.visitMethod(access, name, descriptor, signature, exceptions), access, name, descriptor);
                }
            }, 0);
            return writer.toByteArray();
        } catch (Throwable t) {
            recorder.unobserved(className.replace('/', '.'), t);
            return null;
        } finally {
            recorder.release(wasBusy);
        }
    }

    private interface Rewrite {
        /** A method's visitor that tells the observer, or {@code mv} for a method that does not. */
        MethodVisitor of(MethodVisitor mv, int access, String name, String descriptor);
    }

    /** At a method's entry, passes a local (this, or an argument) to one of the observer's calls. */
    private static final class AtEntry extends MethodVisitor {
        private final int local;
        private final String call;

        AtEntry(MethodVisitor mv, int local, String call) {
            super(Opcodes.ASM9, mv);
            this.local = local;
            this.call = call;
        }

        @Override
        public void visitCode() {
            super.visitCode();
            super.visitVarInsn(Opcodes.ALOAD, local);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, OBSERVER, call, "(Ljava/lang/Object;)V", false);
        }
    }

    /** A pool's worker takes over each task just before it runs it. */
    private static final class TaskRuns extends MethodVisitor {
        TaskRuns(MethodVisitor mv) {
            super(Opcodes.ASM9, mv);
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
            if (opcode == Opcodes.INVOKEINTERFACE && owner.equals("java/lang/Runnable") && name.equals("run") && descriptor.equals("()V")) {
                super.visitInsn(Opcodes.DUP);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, OBSERVER, "takingOver", "(Ljava/lang/Object;)V", false);
            }
            super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        }
    }
}
