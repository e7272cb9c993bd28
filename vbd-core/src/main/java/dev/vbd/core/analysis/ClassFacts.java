package dev.vbd.core.analysis;

import dev.vbd.core.Conventions;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** What the rewriter needs to know of a class before touching it; read without its code. */
public final class ClassFacts {
    public record FieldFact(String name, String desc, int access, boolean relaxedAnnotation, boolean stable) {
        public boolean isStatic() { return (access & Opcodes.ACC_STATIC) != 0; }
        public boolean isFinal() { return (access & Opcodes.ACC_FINAL) != 0; }
        public boolean isVolatile() { return (access & Opcodes.ACC_VOLATILE) != 0; }
    }

    public String name;
    public String superName;
    public String[] interfaces = new String[0];
    public int access;
    public int version;
    public boolean relaxedAnnotation;
    /** Present when the class was already rewritten by vbd. */
    public Marker marker;
    /** Fields by name; of fields sharing a name (legal in class files), the last declared. */
    public final Map<String, FieldFact> fields = new LinkedHashMap<>();
    /** Every field in declaration order; a name may repeat with another descriptor. */
    public final List<FieldFact> declaredFields = new ArrayList<>();
    /** Fields by name and descriptor, which a class file may not repeat: looked up once per access. */
    private final Map<String, FieldFact> byNameAndDesc = new HashMap<>();
    public final Set<String> relaxedMethods = new HashSet<>();
    public final Set<String> intrinsicMethods = new HashSet<>();

    /** What an earlier rewrite recorded. */
    public static final class Marker {
        public final List<String> flipped = new ArrayList<>();
        public final List<String> unfinal = new ArrayList<>();
        public final List<String> relaxed = new ArrayList<>();
        /** Methods left unfenced because fencing them would outgrow the JVM's code limit. */
        public final List<String> unfenced = new ArrayList<>();
        /** Methods whose array element accesses alone are relaxed. */
        public final List<String> relaxedArrays = new ArrayList<>();
        /** Whether the class was rewritten with the checks of speculative fields. */
        public boolean speculative;
        /** Whether the class was rewritten for safe construction alone ({@code --mode safe-construction}). */
        public boolean construction;
        private Set<String> flippedSet;

        /** Whether the rewrite flipped a field of this name; a set, since a class may have thousands. */
        public synchronized boolean flipped(String name) {
            if (flippedSet == null || flippedSet.size() != flipped.size()) flippedSet = new HashSet<>(flipped);
            return flippedSet.contains(name);
        }
    }

    public boolean isRecord() { return "java/lang/Record".equals(superName); }
    public boolean isInterface() { return (access & Opcodes.ACC_INTERFACE) != 0; }
    public boolean isModuleOrPackageInfo() {
        return (access & Opcodes.ACC_MODULE) != 0 || name.endsWith("/package-info") || name.equals("package-info");
    }

    /** The field the JVM would find here for this name and descriptor, or null. */
    public synchronized FieldFact field(String name, String desc) {
        if (byNameAndDesc.size() != declaredFields.size()) {
            byNameAndDesc.clear();
            for (FieldFact f : declaredFields) byNameAndDesc.putIfAbsent(f.name() + ' ' + f.desc(), f);
        }
        return byNameAndDesc.get(name + ' ' + desc);
    }

    /** The final instance fields this class declares, as {@code name + ' ' + descriptor}. */
    public Set<String> finalInstanceFields() {
        Set<String> out = new HashSet<>();
        for (FieldFact f : declaredFields) if (f.isFinal() && !f.isStatic()) out.add(f.name() + ' ' + f.desc());
        return out;
    }

    public boolean hasFinalInstanceFields() {
        for (FieldFact f : fields.values()) {
            if (f.isFinal() && !f.isStatic()) return true;
        }
        return false;
    }

    public static ClassFacts read(byte[] bytes) {
        return read(new ClassReader(bytes));
    }

    public static ClassFacts read(ClassReader reader) {
        ClassFacts facts = new ClassFacts();
        reader.accept(new Collector(facts), ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return facts;
    }

    static final String STABLE_DESC = "Ljdk/internal/vm/annotation/Stable;";
    static final String INTRINSIC_DESCS = "Ljdk/internal/vm/annotation/IntrinsicCandidate;Ljdk/internal/HotSpotIntrinsicCandidate;";

    private static final class Collector extends ClassVisitor {
        private final ClassFacts facts;

        Collector(ClassFacts facts) {
            super(Opcodes.ASM9);
            this.facts = facts;
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
            facts.version = version & 0xFFFF;
            facts.access = access;
            facts.name = name;
            facts.superName = superName;
            facts.interfaces = interfaces == null ? new String[0] : interfaces;
        }

        @Override
        public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
            if (Conventions.RELAXED_DESC.equals(descriptor)) {
                facts.relaxedAnnotation = true;
            } else if (Conventions.MARKER_DESC.equals(descriptor)) {
                facts.marker = new Marker();
                return new AnnotationVisitor(Opcodes.ASM9) {
                    @Override
                    public void visit(String name, Object value) {
                        if (name.equals("speculative")) facts.marker.speculative = Boolean.TRUE.equals(value);
                        if (name.equals("construction")) facts.marker.construction = Boolean.TRUE.equals(value);
                    }

                    @Override
                    public AnnotationVisitor visitArray(String name) {
                        List<String> target = switch (name) {
                            case "flipped" -> facts.marker.flipped;
                            case "unfinal" -> facts.marker.unfinal;
                            case "relaxed" -> facts.marker.relaxed;
                            case "unfenced" -> facts.marker.unfenced;
                            case "relaxedArrays" -> facts.marker.relaxedArrays;
                            default -> new ArrayList<>();
                        };
                        return new AnnotationVisitor(Opcodes.ASM9) {
                            @Override
                            public void visit(String n, Object value) {
                                target.add((String) value);
                            }
                        };
                    }
                };
            }
            return null;
        }

        @Override
        public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
            boolean[] relaxed = new boolean[1];
            boolean[] stable = new boolean[1];
            return new FieldVisitor(Opcodes.ASM9) {
                @Override
                public AnnotationVisitor visitAnnotation(String desc, boolean visible) {
                    if (Conventions.RELAXED_DESC.equals(desc)) relaxed[0] = true;
                    if (STABLE_DESC.equals(desc)) stable[0] = true;
                    return null;
                }

                @Override
                public void visitEnd() {
                    FieldFact fact = new FieldFact(name, descriptor, access, relaxed[0], stable[0]);
                    facts.fields.put(name, fact);
                    facts.declaredFields.add(fact);
                }
            };
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
            String key = name + descriptor;
            return new MethodVisitor(Opcodes.ASM9) {
                @Override
                public AnnotationVisitor visitAnnotation(String desc, boolean visible) {
                    if (Conventions.RELAXED_DESC.equals(desc)) facts.relaxedMethods.add(key);
                    if (INTRINSIC_DESCS.contains(desc)) facts.intrinsicMethods.add(key);
                    return null;
                }
            };
        }
    }
}
