package dev.vbd.agent.observe;

import dev.vbd.core.rewrite.BulkOperations;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.AdviceAdapter;

/**
 * Puts a call to {@link Observer} before every field and array read of a class and after every
 * write, after every
 * lock it takes (monitors, synchronized methods, {@code java.util.concurrent.locks} locks) and
 * before every release, before a thread's start and after its join, at the end of a constructor
 * and the start of a finalizer of a class that declares one, and sends the calls on the JDK's
 * scalar atomics through it ({@link AtomicCalls}). Class initialisers are left as
 * they are. A constructor's accesses before its super constructor runs are left alone:
 * the object is not yet an object the verifier lets code pass on.
 */
public final class ObservingClassVisitor extends ClassVisitor {
    private static final String OBSERVER = Type.getInternalName(Observer.class);

    private final Recorder recorder;
    private final boolean finalizable;
    private String owner;
    private String dotted;
    private String sourceFile;
    private int version;
    /** The fields this class declares volatile (name:descriptor), which stay volatile in relaxed code. */
    private final java.util.Set<String> volatileFields = new java.util.HashSet<>();

    /** {@code finalizable}: whether the class declares a finalizer ({@link #declaresFinalizer}). */
    ObservingClassVisitor(ClassVisitor next, Recorder recorder, boolean finalizable) {
        super(Opcodes.ASM9, next);
        this.recorder = recorder;
        this.finalizable = finalizable;
    }

    /** Whether the class declares {@code finalize()} with a body. */
    static boolean declaresFinalizer(ClassReader reader) {
        boolean[] found = new boolean[1];
        reader.accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                if (isFinalizer(access, name, descriptor)) found[0] = true;
                return null;
            }
        }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return found[0];
    }

    private static boolean isFinalizer(int access, String name, String descriptor) {
        return name.equals("finalize") && descriptor.equals("()V")
                && (access & (Opcodes.ACC_STATIC | Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) == 0;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        this.owner = name;
        this.dotted = name.replace('/', '.');
        this.version = version & 0xFFFF;
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public void visitSource(String source, String debug) {
        this.sourceFile = source;
        recorder.sharing.sourceFile(dotted, source);
        super.visitSource(source, debug);
    }

    @Override
    public org.objectweb.asm.FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
        // a class's fields come before its methods
        if ((access & Opcodes.ACC_VOLATILE) != 0) volatileFields.add(name + ":" + descriptor);
        return super.visitField(access, name, descriptor, signature, value);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
        // A class initialiser runs under the JVM's initialisation lock, which orders it before every
        // other thread's use of the class: its own accesses race with nothing the observer could tell
        // from one without modelling that lock, so they are left out. Its end is a release that a
        // use of the class's static fields acquires: what the constructors it calls write is ordered.
        if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) return mv;
        if (recorder.tracksAllocations()) mv = new Allocations(mv, name);
        if (name.equals("<clinit>")) return version >= Opcodes.V1_5 ? new InitialiserEnd(mv) : mv;
        return new Method(mv, access, name, descriptor, recorder.candidate(dotted, name, descriptor));
    }

    /** Tells the observer where each array is allocated, so that a shared one can be named by its allocation. */
    private final class Allocations extends MethodVisitor {
        private final String method;
        private int line;

        Allocations(MethodVisitor mv, String method) {
            super(Opcodes.ASM9, mv);
            this.method = method;
        }

        @Override
        public void visitLineNumber(int line, Label start) {
            this.line = line;
            super.visitLineNumber(line, start);
        }

        @Override
        public void visitIntInsn(int opcode, int operand) {
            super.visitIntInsn(opcode, operand);
            if (opcode == Opcodes.NEWARRAY) allocated(switch (operand) {
                case Opcodes.T_BOOLEAN -> "boolean";
                case Opcodes.T_BYTE -> "byte";
                case Opcodes.T_CHAR -> "char";
                case Opcodes.T_SHORT -> "short";
                case Opcodes.T_INT -> "int";
                case Opcodes.T_LONG -> "long";
                case Opcodes.T_FLOAT -> "float";
                default -> "double";
            } + "[]");
        }

        @Override
        public void visitTypeInsn(int opcode, String type) {
            super.visitTypeInsn(opcode, type);
            if (opcode == Opcodes.ANEWARRAY) allocated(Type.getObjectType(type).getClassName() + "[]");
        }

        @Override
        public void visitMultiANewArrayInsn(String descriptor, int dims) {
            super.visitMultiANewArrayInsn(descriptor, dims);
            allocated(Type.getType(descriptor).getClassName());
        }

        private void allocated(String type) {
            super.visitInsn(Opcodes.DUP);
            super.visitLdcInsn(recorder.site(dotted, method, sourceFile, line, "new " + type, true, -1, null));
            super.visitMethodInsn(Opcodes.INVOKESTATIC, OBSERVER, "allocated", "(Ljava/lang/Object;I)V", false);
        }

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            super.visitMaxs(maxStack + 2, maxLocals);
        }
    }

    /**
     * Tells the observer where a class initialiser starts and where it returns; one that throws
     * leaves the class unusable.
     */
    private final class InitialiserEnd extends MethodVisitor {
        InitialiserEnd(MethodVisitor mv) {
            super(Opcodes.ASM9, mv);
        }

        @Override
        public void visitCode() {
            super.visitCode();
            super.visitLdcInsn(Type.getObjectType(owner));
            super.visitMethodInsn(Opcodes.INVOKESTATIC, OBSERVER, "initialising", "(Ljava/lang/Class;)V", false);
        }

        @Override
        public void visitInsn(int opcode) {
            if (opcode == Opcodes.RETURN) {
                super.visitLdcInsn(Type.getObjectType(owner));
                super.visitMethodInsn(Opcodes.INVOKESTATIC, OBSERVER, "initialised", "(Ljava/lang/Class;)V", false);
            }
            super.visitInsn(opcode);
        }
    }

    private final class Method extends AdviceAdapter {
        private final int candidate;
        private final String method;
        private final boolean synced;
        private final Label start = new Label();
        private final Label end = new Label();
        private boolean entered;
        private int line;

        Method(MethodVisitor mv, int access, String name, String descriptor, int candidate) {
            super(Opcodes.ASM9, mv, access, name, descriptor);
            this.candidate = candidate;
            this.method = name;
            this.synced = (access & Opcodes.ACC_SYNCHRONIZED) != 0;
        }

        @Override
        protected void onMethodEnter() {
            entered = true;
            if (finalizable && isFinalizer(methodAccess, method, methodDesc)) {
                mv.visitVarInsn(ALOAD, 0);
                observer("finalizing", "(Ljava/lang/Object;)V");
            }
            if (synced) {
                pushLock();
                observer("acquired", "(Ljava/lang/Object;)V");
                visitLabel(start);
            }
        }

        @Override
        protected void onMethodExit(int opcode) {
            if (finalizable && method.equals("<init>") && opcode != ATHROW) {
                mv.visitVarInsn(ALOAD, 0);
                observer("constructed", "(Ljava/lang/Object;)V");
            }
            // a throw leaves through the handler visitMaxs adds, like every other exception
            if (synced && opcode != ATHROW) {
                pushLock();
                observer("releasing", "(Ljava/lang/Object;)V");
            }
        }

        @Override
        public void visitLineNumber(int line, Label start) {
            this.line = line;
            super.visitLineNumber(line, start);
        }

        @Override
        public void visitFieldInsn(int opcode, String fieldOwner, String name, String descriptor) {
            String field = name + ":" + descriptor;
            if (entered && (candidate >= 0 || recorder.watchesField(field))) {
                String target = fieldOwner.replace('/', '.') + "." + name;
                switch (opcode) {
                    case GETFIELD -> {
                        mv.visitInsn(DUP);
                        fieldSite(target, false, fieldOwner, field);
                        observer("read", "(Ljava/lang/Object;I)V");
                    }
                    case PUTFIELD -> {
                        // [obj, value] -> [obj, obj, value]: a write is recorded once it is done, so that
                        // a read recorded after the write's record cannot have seen the value before it
                        if (Type.getType(descriptor).getSize() == 2) {
                            mv.visitInsn(DUP2_X1);
                            mv.visitInsn(POP2);
                            mv.visitInsn(DUP_X2);
                            mv.visitInsn(DUP_X2);
                            mv.visitInsn(POP);
                        } else {
                            mv.visitInsn(SWAP);
                            mv.visitInsn(DUP_X1);
                            mv.visitInsn(SWAP);
                        }
                        super.visitFieldInsn(opcode, fieldOwner, name, descriptor);
                        fieldSite(target, true, fieldOwner, field);
                        observer("write", "(Ljava/lang/Object;I)V");
                        return;
                    }
                    case PUTSTATIC -> {
                        super.visitFieldInsn(opcode, fieldOwner, name, descriptor);
                        pushClass(fieldOwner);
                        fieldSite(target, true, fieldOwner, field);
                        observer("writeStatic", "(Ljava/lang/Class;I)V");
                        return;
                    }
                    case GETSTATIC -> {
                        pushClass(fieldOwner);
                        fieldSite(target, false, fieldOwner, field);
                        observer("readStatic", "(Ljava/lang/Class;I)V");
                    }
                    default -> { }
                }
            }
            super.visitFieldInsn(opcode, fieldOwner, name, descriptor);
        }

        private void pushClass(String internalName) {
            if (version >= Opcodes.V1_5) {
                mv.visitLdcInsn(Type.getObjectType(internalName));
            } else {
                mv.visitInsn(ACONST_NULL);
            }
        }

        @Override
        public void visitInsn(int opcode) {
            switch (opcode) {
                case IALOAD, LALOAD, FALOAD, DALOAD, AALOAD, BALOAD, CALOAD, SALOAD -> {
                    if (entered && (candidate >= 0 || recorder.watchesArray(opcode - IALOAD))) {
                        mv.visitInsn(DUP2);
                        mv.visitInsn(POP);
                        site(arrayName(opcode), false, null);
                        observer("read", "(Ljava/lang/Object;I)V");
                    }
                    super.visitInsn(opcode);
                }
                case IASTORE, LASTORE, FASTORE, DASTORE, AASTORE, BASTORE, CASTORE, SASTORE -> {
                    if (!entered || !(candidate >= 0 || recorder.watchesArray(opcode - IASTORE))) {
                        super.visitInsn(opcode);
                        return;
                    }
                    site(arrayName(opcode), true, null);
                    switch (opcode) {
                        case IASTORE -> observer("storeInt", "([IIII)V");
                        case LASTORE -> observer("storeLong", "([JIJI)V");
                        case FASTORE -> observer("storeFloat", "([FIFI)V");
                        case DASTORE -> observer("storeDouble", "([DIDI)V");
                        case AASTORE -> observer("storeReference", "([Ljava/lang/Object;ILjava/lang/Object;I)V");
                        case BASTORE -> observer("storeByte", "(Ljava/lang/Object;III)V");
                        case CASTORE -> observer("storeChar", "([CIII)V");
                        default -> observer("storeShort", "([SIII)V");
                    }
                }
                case MONITORENTER -> {
                    if (!entered) {
                        super.visitInsn(opcode);
                        return;
                    }
                    mv.visitInsn(DUP);
                    super.visitInsn(opcode);
                    observer("acquired", "(Ljava/lang/Object;)V");
                }
                case MONITOREXIT -> {
                    if (!entered) {
                        super.visitInsn(opcode);
                        return;
                    }
                    mv.visitInsn(DUP);
                    observer("releasing", "(Ljava/lang/Object;)V");
                    super.visitInsn(opcode);
                }
                default -> super.visitInsn(opcode);
            }
        }

        @Override
        public void visitMethodInsn(int opcode, String callee, String name, String descriptor, boolean isInterface) {
            if (entered && opcode == INVOKEVIRTUAL && descriptor.equals("()V") && (name.equals("start") || name.equals("join"))) {
                // any class's start() or join(): the observer looks at the receiver, a thread or not
                mv.visitInsn(DUP);
                if (name.equals("start")) {
                    observer("starting", "(Ljava/lang/Object;)V");
                    super.visitMethodInsn(opcode, callee, name, descriptor, isInterface);
                } else {
                    super.visitMethodInsn(opcode, callee, name, descriptor, isInterface);
                    observer("joined", "(Ljava/lang/Object;)V");
                }
                return;
            }
            if (entered && bulk(opcode, callee, name, descriptor) && (candidate >= 0 || recorder.watchesAnyArray())) {
                if (opcode == INVOKESTATIC) {
                    site("array elements (System.arraycopy's source)", false, null);
                    site("array elements (System.arraycopy's destination)", true, null);
                    observer("arraycopy", "(Ljava/lang/Object;ILjava/lang/Object;IIII)V");
                    return;
                }
                mv.visitInsn(DUP);
                site("array elements (clone)", false, null);
                observer("read", "(Ljava/lang/Object;I)V");
                super.visitMethodInsn(opcode, callee, name, descriptor, isInterface);
                return;
            }
            AtomicCalls.Call atomic = entered && opcode == INVOKEVIRTUAL ? AtomicCalls.of(callee, name, descriptor) : null;
            if (atomic != null) {
                mv.visitLdcInsn(atomic.op());
                mv.visitLdcInsn(recorder.atomicSite(dotted, method, sourceFile, line,
                        callee.substring(callee.lastIndexOf('/') + 1) + "." + name));
                observer(atomic.helper(), atomic.descriptor());
                return;
            }
            if (!entered || !callee.startsWith("java/util/concurrent/locks/") || opcode == INVOKESTATIC) {
                super.visitMethodInsn(opcode, callee, name, descriptor, isInterface);
                return;
            }
            if ((name.equals("lock") || name.equals("lockInterruptibly")) && descriptor.equals("()V")) {
                mv.visitInsn(DUP);
                super.visitMethodInsn(opcode, callee, name, descriptor, isInterface);
                observer("acquired", "(Ljava/lang/Object;)V");
            } else if (name.equals("tryLock") && descriptor.equals("()Z")) {
                mv.visitInsn(DUP);
                super.visitMethodInsn(opcode, callee, name, descriptor, isInterface);
                observer("tryAcquired", "(Ljava/lang/Object;Z)Z");
            } else if (name.equals("unlock") && descriptor.equals("()V")) {
                mv.visitInsn(DUP);
                observer("releasing", "(Ljava/lang/Object;)V");
                super.visitMethodInsn(opcode, callee, name, descriptor, isInterface);
            } else {
                super.visitMethodInsn(opcode, callee, name, descriptor, isInterface);
            }
        }

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            if (synced) {
                // every exception leaving the method releases its monitor: so does the observer's lock set
                Label handler = new Label();
                mv.visitLabel(end);
                mv.visitLabel(handler);
                if (version >= Opcodes.V1_6) {
                    Object[] locals = (methodAccess & ACC_STATIC) != 0 ? new Object[0] : new Object[] {owner};
                    mv.visitFrame(F_NEW, locals.length, locals, 1, new Object[] {"java/lang/Throwable"});
                }
                pushLock();
                observer("releasing", "(Ljava/lang/Object;)V");
                mv.visitInsn(ATHROW);
                mv.visitTryCatchBlock(start, end, handler, null);
            }
            super.visitMaxs(maxStack, maxLocals);
        }

        private void pushLock() {
            if ((methodAccess & ACC_STATIC) != 0) {
                mv.visitLdcInsn(Type.getObjectType(owner));
            } else {
                mv.visitVarInsn(ALOAD, 0);
            }
        }

        private void site(String target, boolean write, String field) {
            site(target, write, field, candidate);
        }

        /**
         * A field access's site: a field of this class's that it declares volatile stays volatile
         * in relaxed code, so an access to it is SC, a candidate's too. (One another class declares
         * is taken as plain: safe, where it is volatile, as a race reported that is none.)
         */
        private int fieldSite(String target, boolean write, String fieldOwner, String field) {
            boolean volatileHere = fieldOwner.equals(owner) && volatileFields.contains(field);
            return site(target, write, field, volatileHere ? -1 : candidate);
        }

        /** Pushes a new site's number, and returns it. */
        private int site(String target, boolean write, String field, int candidate) {
            int id = recorder.site(dotted, method, sourceFile, line, target, write, candidate, field);
            mv.visitLdcInsn(id);
            return id;
        }

        private void observer(String name, String descriptor) {
            mv.visitMethodInsn(INVOKESTATIC, OBSERVER, name, descriptor, false);
        }
    }

    /**
     * Among the call sites vbd fences as bulk operations, the native ones on array elements:
     * {@code System.arraycopy} and an array's {@code clone()}.
     */
    public static boolean bulk(int opcode, String callee, String name, String descriptor) {
        if (!BulkOperations.isBulk(callee, name, descriptor)) return false;
        return opcode == Opcodes.INVOKESTATIC ? callee.equals("java/lang/System") : callee.startsWith("[");
    }

    private static String arrayName(int opcode) {
        return switch (opcode) {
            case Opcodes.IALOAD, Opcodes.IASTORE -> "int[]";
            case Opcodes.LALOAD, Opcodes.LASTORE -> "long[]";
            case Opcodes.FALOAD, Opcodes.FASTORE -> "float[]";
            case Opcodes.DALOAD, Opcodes.DASTORE -> "double[]";
            case Opcodes.AALOAD, Opcodes.AASTORE -> "Object[]";
            case Opcodes.BALOAD, Opcodes.BASTORE -> "byte[] or boolean[]";
            case Opcodes.CALOAD, Opcodes.CASTORE -> "char[]";
            default -> "short[]";
        };
    }
}
