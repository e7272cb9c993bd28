package dev.vbd.agent.layout;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.AdviceAdapter;

/**
 * Puts a call to {@link LayoutProbe} at every field and array element access of a class, after
 * every array allocation, and at the end of every constructor. A constructor's accesses before its
 * super constructor runs are left alone: the object is not yet one the verifier lets code pass on.
 * The calls leave the operand stack as they found it, so the class's stack map frames still hold.
 */
final class LayoutVisitor extends ClassVisitor {
    private static final String PROBE = Type.getInternalName(LayoutProbe.class);

    private final Targets targets;
    private String dotted;
    private String sourceFile;
    private int version;

    LayoutVisitor(ClassVisitor next, Targets targets) {
        super(Opcodes.ASM9, next);
        this.targets = targets;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        this.dotted = name.replace('/', '.');
        this.version = version & 0xFFFF;
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public void visitSource(String source, String debug) {
        this.sourceFile = source;
        super.visitSource(source, debug);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
        if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0 || mv == null) return mv;
        return new Method(mv, access, name, descriptor);
    }

    private final class Method extends AdviceAdapter {
        private final String method;
        private boolean entered;
        private int line;
        /** The allocation site the last instruction was, whose array the next may store into a field; -1 for none. */
        private int allocation = -1;

        Method(MethodVisitor mv, int access, String name, String descriptor) {
            super(Opcodes.ASM9, mv, access, name, descriptor);
            this.method = name;
        }

        @Override
        protected void onMethodEnter() {
            entered = true;
        }

        @Override
        protected void onMethodExit(int opcode) {
            if (method.equals("<init>") && opcode != ATHROW) {
                mv.visitVarInsn(ALOAD, 0);
                probe("constructed", "(Ljava/lang/Object;)V");
            }
        }

        @Override
        public void visitLineNumber(int line, Label start) {
            this.line = line;
            super.visitLineNumber(line, start);
        }

        @Override
        public void visitFieldInsn(int opcode, String fieldOwner, String name, String descriptor) {
            if (allocation >= 0 && (opcode == PUTFIELD || opcode == PUTSTATIC)) targets.storedIn(allocation, fieldOwner, name);
            allocation = -1;
            if (!entered) {
                super.visitFieldInsn(opcode, fieldOwner, name, descriptor);
                return;
            }
            boolean isStatic = opcode == GETSTATIC || opcode == PUTSTATIC;
            int target = targets.field(fieldOwner, name, descriptor, isStatic);
            switch (opcode) {
                case GETFIELD -> {
                    mv.visitInsn(DUP);
                    mv.visitLdcInsn(target);
                    probe("read", "(Ljava/lang/Object;I)V");
                }
                case PUTFIELD -> {
                    // [obj, value] -> [obj, value, obj]
                    if (Type.getType(descriptor).getSize() == 2) {
                        mv.visitInsn(DUP2_X1);
                        mv.visitInsn(POP2);
                        mv.visitInsn(DUP_X2);
                    } else {
                        mv.visitInsn(DUP2);
                        mv.visitInsn(POP);
                    }
                    mv.visitLdcInsn(target);
                    probe("write", "(Ljava/lang/Object;I)V");
                }
                default -> {
                    if (version >= Opcodes.V1_5) {
                        mv.visitLdcInsn(Type.getObjectType(fieldOwner));
                    } else {
                        mv.visitInsn(ACONST_NULL);
                    }
                    mv.visitLdcInsn(target);
                    probe(opcode == GETSTATIC ? "readStatic" : "writeStatic", "(Ljava/lang/Class;I)V");
                }
            }
            super.visitFieldInsn(opcode, fieldOwner, name, descriptor);
        }

        @Override
        public void visitInsn(int opcode) {
            allocation = -1;
            if (!entered) {
                super.visitInsn(opcode);
                return;
            }
            switch (opcode) {
                case IALOAD, LALOAD, FALOAD, DALOAD, AALOAD, BALOAD, CALOAD, SALOAD -> {
                    mv.visitInsn(DUP2);
                    probe("load", "(Ljava/lang/Object;I)V");
                    super.visitInsn(opcode);
                }
                case IASTORE -> probe("storeInt", "([III)V");
                case LASTORE -> probe("storeLong", "([JIJ)V");
                case FASTORE -> probe("storeFloat", "([FIF)V");
                case DASTORE -> probe("storeDouble", "([DID)V");
                case AASTORE -> probe("storeReference", "([Ljava/lang/Object;ILjava/lang/Object;)V");
                case BASTORE -> probe("storeByte", "(Ljava/lang/Object;II)V");
                case CASTORE -> probe("storeChar", "([CII)V");
                case SASTORE -> probe("storeShort", "([SII)V");
                default -> super.visitInsn(opcode);
            }
        }

        @Override
        public void visitVarInsn(int opcode, int var) {
            allocation = -1;
            super.visitVarInsn(opcode, var);
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
            allocation = -1;
            super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        }

        @Override
        public void visitJumpInsn(int opcode, Label label) {
            allocation = -1;
            super.visitJumpInsn(opcode, label);
        }

        @Override
        public void visitLdcInsn(Object value) {
            allocation = -1;
            super.visitLdcInsn(value);
        }

        @Override
        public void visitIincInsn(int var, int increment) {
            allocation = -1;
            super.visitIincInsn(var, increment);
        }

        @Override
        public void visitIntInsn(int opcode, int operand) {
            allocation = -1;
            super.visitIntInsn(opcode, operand);
            if (opcode == NEWARRAY) allocated(Type.getType(switch (operand) {
                case T_BOOLEAN -> "[Z";
                case T_BYTE -> "[B";
                case T_CHAR -> "[C";
                case T_SHORT -> "[S";
                case T_INT -> "[I";
                case T_LONG -> "[J";
                case T_FLOAT -> "[F";
                default -> "[D";
            }).getClassName());
        }

        @Override
        public void visitTypeInsn(int opcode, String type) {
            allocation = -1;
            super.visitTypeInsn(opcode, type);
            if (opcode == ANEWARRAY) allocated(Type.getObjectType(type).getClassName() + "[]");
        }

        @Override
        public void visitMultiANewArrayInsn(String descriptor, int dims) {
            allocation = -1;
            super.visitMultiANewArrayInsn(descriptor, dims);
            allocated(Type.getType(descriptor).getClassName());
        }

        private void allocated(String type) {
            int site = targets.arraySite(dotted, method, sourceFile, line, type);
            mv.visitInsn(DUP);
            mv.visitLdcInsn(site);
            probe("allocated", "(Ljava/lang/Object;I)V");
            allocation = site;
        }

        private void probe(String name, String descriptor) {
            mv.visitMethodInsn(INVOKESTATIC, PROBE, name, descriptor, false);
        }

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            super.visitMaxs(maxStack + 4, maxLocals);
        }
    }
}
