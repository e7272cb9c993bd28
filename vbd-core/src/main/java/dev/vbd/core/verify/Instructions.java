package dev.vbd.core.verify;

import java.util.Arrays;

/**
 * The instructions of one method, decoded from its raw code: each instruction's offset and
 * opcode, and which offsets control can reach other than by falling through (branch targets,
 * exception handlers and the bounds of protected ranges).
 */
final class Instructions {
    final int[] offsets;
    final int[] opcodes;
    /** Absolute position of each instruction in the class file. */
    final int[] positions;
    final int size;
    private final boolean[] entry;

    Instructions(ClassCode cf, ClassCode.Method m) {
        int start = m.codeStart();
        int length = m.codeLength();
        int[] offs = new int[Math.max(4, length / 2)];
        int[] ops = new int[offs.length];
        boolean[] targets = new boolean[length + 1];
        int n = 0;
        int pc = 0;
        while (pc < length) {
            int op = cf.u1(start + pc);
            if (n == offs.length) {
                offs = Arrays.copyOf(offs, n * 2);
                ops = Arrays.copyOf(ops, n * 2);
            }
            offs[n] = pc;
            ops[n] = op;
            n++;
            int len;
            switch (op) {
                case 0xaa -> { // tableswitch
                    int q = (pc + 4) & ~3;
                    mark(targets, pc + cf.s4(start + q));
                    int low = cf.s4(start + q + 4);
                    int high = cf.s4(start + q + 8);
                    for (int i = 0; i <= high - low; i++) mark(targets, pc + cf.s4(start + q + 12 + 4 * i));
                    len = q + 12 + 4 * (high - low + 1) - pc;
                }
                case 0xab -> { // lookupswitch
                    int q = (pc + 4) & ~3;
                    mark(targets, pc + cf.s4(start + q));
                    int pairs = cf.s4(start + q + 4);
                    for (int i = 0; i < pairs; i++) mark(targets, pc + cf.s4(start + q + 12 + 8 * i));
                    len = q + 8 + 8 * pairs - pc;
                }
                case 0xc4 -> len = cf.u1(start + pc + 1) == 0x84 ? 6 : 4; // wide
                default -> {
                    len = LENGTH[op];
                    if (len == 0) {
                        throw new IllegalArgumentException("unknown opcode " + op + " at offset " + pc);
                    }
                    if ((op >= 0x99 && op <= 0xa8) || op == 0xc6 || op == 0xc7) {
                        mark(targets, pc + cf.s2(start + pc + 1));
                    } else if (op == 0xc8 || op == 0xc9) {
                        mark(targets, pc + cf.s4(start + pc + 1));
                    }
                }
            }
            pc += len;
        }
        int ex = m.exceptionTable();
        int entries = cf.u2(ex);
        for (int i = 0; i < entries; i++) {
            int e = ex + 2 + 8 * i;
            mark(targets, cf.u2(e));
            mark(targets, cf.u2(e + 2));
            mark(targets, cf.u2(e + 4));
        }
        this.offsets = offs;
        this.opcodes = ops;
        this.size = n;
        this.entry = targets;
        this.positions = new int[n];
        for (int i = 0; i < n; i++) positions[i] = start + offs[i];
    }

    private static void mark(boolean[] targets, int pc) {
        if (pc >= 0 && pc < targets.length) targets[pc] = true;
    }

    /** Whether control can reach instruction {@code i} other than from instruction {@code i - 1}. */
    boolean isEntry(int i) {
        return entry[offsets[i]];
    }

    /** Instruction lengths by opcode (0: variable or undefined). */
    private static final int[] LENGTH = new int[256];

    static {
        for (int op = 0x00; op <= 0x0f; op++) LENGTH[op] = 1; // nop .. dconst_1
        LENGTH[0x10] = 2; // bipush
        LENGTH[0x11] = 3; // sipush
        LENGTH[0x12] = 2; // ldc
        LENGTH[0x13] = 3; // ldc_w
        LENGTH[0x14] = 3; // ldc2_w
        for (int op = 0x15; op <= 0x19; op++) LENGTH[op] = 2; // xload
        for (int op = 0x1a; op <= 0x35; op++) LENGTH[op] = 1; // xload_n, xaload
        for (int op = 0x36; op <= 0x3a; op++) LENGTH[op] = 2; // xstore
        for (int op = 0x3b; op <= 0x83; op++) LENGTH[op] = 1; // xstore_n, xastore, stack, arithmetic
        LENGTH[0x84] = 3; // iinc
        for (int op = 0x85; op <= 0x98; op++) LENGTH[op] = 1; // conversions, comparisons
        for (int op = 0x99; op <= 0xa8; op++) LENGTH[op] = 3; // if*, goto, jsr
        LENGTH[0xa9] = 2; // ret
        for (int op = 0xac; op <= 0xb1; op++) LENGTH[op] = 1; // returns
        for (int op = 0xb2; op <= 0xb8; op++) LENGTH[op] = 3; // field access, invokevirtual/special/static
        LENGTH[0xb9] = 5; // invokeinterface
        LENGTH[0xba] = 5; // invokedynamic
        LENGTH[0xbb] = 3; // new
        LENGTH[0xbc] = 2; // newarray
        LENGTH[0xbd] = 3; // anewarray
        LENGTH[0xbe] = 1; // arraylength
        LENGTH[0xbf] = 1; // athrow
        LENGTH[0xc0] = 3; // checkcast
        LENGTH[0xc1] = 3; // instanceof
        LENGTH[0xc2] = 1; // monitorenter
        LENGTH[0xc3] = 1; // monitorexit
        LENGTH[0xc5] = 4; // multianewarray
        LENGTH[0xc6] = 3; // ifnull
        LENGTH[0xc7] = 3; // ifnonnull
        LENGTH[0xc8] = 5; // goto_w
        LENGTH[0xc9] = 5; // jsr_w
    }
}
