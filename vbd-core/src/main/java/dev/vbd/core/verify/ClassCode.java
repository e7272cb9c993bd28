package dev.vbd.core.verify;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The methods of a class file with the raw bytes of their code, read straight from the class
 * file so that findings carry the exact bytecode offsets the JVM reports (ASM's visitors do not
 * expose offsets). Constant pool entries are resolved through ASM's {@link ClassReader}.
 */
final class ClassCode {
    /** One method; {@code codeStart} is the offset of its first instruction in the class file (-1 without code). */
    record Method(String name, String desc, int access, int codeStart, int codeLength, int exceptionTable) {
        String key() { return name + desc; }
    }

    final byte[] b;
    final ClassReader reader;
    final List<Method> methods = new ArrayList<>();
    /** Offsets of the BootstrapMethods entries, in order. */
    final List<Integer> bootstrapMethods = new ArrayList<>();
    private final char[] buf;
    /** What each Methodref means to the checks, by constant pool index, filled as met (calls repeat). */
    final Object[] calls;
    private Map<String, MethodNode> trees;

    ClassCode(byte[] bytes) {
        this.b = bytes;
        this.reader = new ClassReader(bytes);
        this.buf = new char[reader.getMaxStringLength()];
        this.calls = new Object[reader.getItemCount()];
        int p = reader.header + 6;
        p += 2 + 2 * u2(p);
        int fields = u2(p);
        p += 2;
        for (int i = 0; i < fields; i++) p = skipAttributes(p + 6);
        int count = u2(p);
        p += 2;
        for (int i = 0; i < count; i++) {
            int access = u2(p);
            String name = reader.readUTF8(p + 2, buf);
            String desc = reader.readUTF8(p + 4, buf);
            int attrs = u2(p + 6);
            p += 8;
            int codeStart = -1, codeLength = 0, exceptions = -1;
            for (int a = 0; a < attrs; a++) {
                int len = reader.readInt(p + 2);
                if ("Code".equals(reader.readUTF8(p, buf))) {
                    codeLength = reader.readInt(p + 10);
                    codeStart = p + 14;
                    exceptions = codeStart + codeLength;
                }
                p += 6 + len;
            }
            methods.add(new Method(name, desc, access, codeStart, codeLength, exceptions));
        }
        int attrs = u2(p);
        p += 2;
        for (int a = 0; a < attrs; a++) {
            int len = reader.readInt(p + 2);
            if ("BootstrapMethods".equals(reader.readUTF8(p, buf))) {
                int n = u2(p + 6);
                int q = p + 8;
                for (int k = 0; k < n; k++) {
                    bootstrapMethods.add(q);
                    q += 4 + 2 * u2(q + 2);
                }
            }
            p += 6 + len;
        }
    }

    private int skipAttributes(int p) {
        int attrs = u2(p);
        p += 2;
        for (int a = 0; a < attrs; a++) p += 6 + reader.readInt(p + 2);
        return p;
    }

    int u1(int offset) { return b[offset] & 0xFF; }
    int u2(int offset) { return reader.readUnsignedShort(offset); }
    int s2(int offset) { return reader.readShort(offset); }
    int s4(int offset) { return reader.readInt(offset); }

    String className() { return reader.getClassName(); }

    /** A Fieldref or Methodref: {owner, name, descriptor}. */
    String[] member(int cpIndex) {
        int item = reader.getItem(cpIndex);
        String owner = reader.readClass(item, buf);
        int nat = reader.getItem(u2(item + 2));
        return new String[]{owner, reader.readUTF8(nat, buf), reader.readUTF8(nat + 2, buf)};
    }

    /** One method as ASM's tree: read for the few methods whose checks need a data-flow analysis. */
    MethodNode tree(Method m) {
        if (trees == null) {
            ClassNode node = new ClassNode();
            reader.accept(node, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
            trees = new HashMap<>();
            for (MethodNode mn : node.methods) trees.put(mn.name + mn.desc, mn);
        }
        return trees.get(m.key());
    }

    /** An invokedynamic's bootstrap method as {owner, name, descriptor}, or null if unreadable. */
    String[] indyBootstrap(int cpIndex) {
        int item = reader.getItem(cpIndex);
        int bsmIndex = u2(item);
        if (bsmIndex >= bootstrapMethods.size()) return null;
        int handle = reader.getItem(u2(bootstrapMethods.get(bsmIndex)));
        // CONSTANT_MethodHandle: reference_kind u1, reference_index u2
        return member(u2(handle + 1));
    }

    /** The first static argument of an invokedynamic's bootstrap, if it is a class: its internal name; else null. */
    String indyClassArgument(int cpIndex) {
        int item = reader.getItem(cpIndex);
        int bsmIndex = u2(item);
        if (bsmIndex >= bootstrapMethods.size()) return null;
        int entry = bootstrapMethods.get(bsmIndex);
        if (u2(entry + 2) < 1) return null;
        Object arg = reader.readConst(u2(entry + 4), buf);
        return arg instanceof org.objectweb.asm.Type t && t.getSort() == org.objectweb.asm.Type.OBJECT ? t.getInternalName() : null;
    }

    /** The name and descriptor an invokedynamic links: {name, descriptor}. */
    String[] indyNameAndType(int cpIndex) {
        int item = reader.getItem(cpIndex);
        int nat = reader.getItem(u2(item + 2));
        return new String[]{reader.readUTF8(nat, buf), reader.readUTF8(nat + 2, buf)};
    }
}
