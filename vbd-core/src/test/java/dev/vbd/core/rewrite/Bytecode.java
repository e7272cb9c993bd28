package dev.vbd.core.rewrite;

import dev.vbd.Relaxed;
import dev.vbd.core.ClassBytesSource;
import dev.vbd.core.Conventions;
import dev.vbd.core.policy.Policy;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicVerifier;
import org.objectweb.asm.util.CheckClassAdapter;
import org.objectweb.asm.util.Textifier;
import org.objectweb.asm.util.TraceMethodVisitor;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Test support: compiles Java source in memory, rewrites it, and prints method bodies as
 * Textifier lines so that tests can state the exact instruction sequence before and after.
 */
public final class Bytecode {
    private Bytecode() {}

    /** The load of the runtime's order field, as Textifier prints it. */
    public static final String ORDER_LOAD = "GETSTATIC " + Conventions.RUNTIME + "." + Conventions.ORDER + " : " + Conventions.ORDER_DESC;
    /**
     * An acquire fence as {@link #of} prints it: a call, or where the rewriter writes it inline
     * (x86-64) the load of the runtime's order field and its POP, printed as one line.
     */
    public static final String ACQUIRE = Conventions.INLINE_FENCES
            ? "acquire: " + ORDER_LOAD + " POP" : "INVOKESTATIC " + Conventions.RUNTIME + ".acquire ()V";
    public static final String RELEASE = "INVOKESTATIC " + Conventions.RUNTIME + ".release ()V";
    public static final String FULL = "INVOKESTATIC " + Conventions.RUNTIME + ".full ()V";

    private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    private static final Pattern TYPE = Pattern.compile(
            "^(?:public\\s+|final\\s+|abstract\\s+|@[\\w.]+(?:\\([^)]*\\))?\\s+)*(?:class|interface|record|enum)\\s+(\\w+)",
            Pattern.MULTILINE);

    /**
     * Compiles each source (one top-level type a source, or a package-info when it declares no
     * type) for Java 17, with vbd-annotations on the class path. Returns every class file by
     * internal name, nested classes included.
     */
    public static Map<String, byte[]> compile(String... sources) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "tests need a JDK, not a JRE");
        List<JavaFileObject> units = new ArrayList<>();
        for (String s : sources) {
            units.add(new Source(pathOf(s), s));
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        Map<String, ByteArrayOutputStream> out = new LinkedHashMap<>();
        StandardJavaFileManager std = javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8);
        JavaFileManager fm = new ForwardingJavaFileManager<>(std) {
            @Override
            public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind,
                                                       FileObject sibling) {
                return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + ".class"), kind) {
                    @Override
                    public OutputStream openOutputStream() {
                        ByteArrayOutputStream b = new ByteArrayOutputStream();
                        out.put(className.replace('.', '/'), b);
                        return b;
                    }
                };
            }
        };
        List<String> options = List.of("--release", "17", "-g:source,lines", "-proc:none", "-Xlint:none", "-nowarn",
                "-classpath", annotationsClassPath());
        boolean ok = javac.getTask(null, fm, diagnostics, options, null, units).call();
        if (!ok) {
            fail("test source does not compile:\n" + diagnostics.getDiagnostics().stream()
                    .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                    .map(Object::toString).collect(Collectors.joining("\n")));
        }
        Map<String, byte[]> classes = new LinkedHashMap<>();
        out.forEach((k, v) -> classes.put(k, v.toByteArray()));
        return classes;
    }

    /** Compiles sources whose first type is the one the test is about, and returns its class file. */
    public static byte[] compileOne(String source) {
        String path = pathOf(source);
        String name = path.substring(0, path.length() - ".java".length());
        byte[] b = compile(source).get(name);
        assertNotNull(b, "no class file for " + name);
        return b;
    }

    private static String pathOf(String source) {
        Matcher p = PACKAGE.matcher(source);
        String pkg = p.find() ? p.group(1).replace('.', '/') + "/" : "";
        Matcher t = TYPE.matcher(source);
        return pkg + (t.find() ? t.group(1) : "package-info") + ".java";
    }

    private static String annotationsClassPath() {
        try {
            return Path.of(Relaxed.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (Exception e) {
            throw new IllegalStateException("cannot locate vbd-annotations: " + e, e);
        }
    }

    private static final class Source extends SimpleJavaFileObject {
        private final String text;

        Source(String path, String text) {
            super(URI.create("string:///" + path), Kind.SOURCE);
            this.text = text;
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return text;
        }
    }

    /** A source over compiled classes, as the agent's class loader would provide. */
    public static ClassBytesSource sourceOf(Map<String, byte[]> classes) {
        return classes::get;
    }

    public static RewriteResult rewrite(byte[] bytes) {
        return new ClassRewriter(Policy.defaults(), ClassBytesSource.NONE).rewrite(bytes);
    }

    /** Rewrites with the default policy and the classes themselves as the byte source. */
    public static byte[] rewritten(Map<String, byte[]> classes, String name) {
        return rewritten(new ClassRewriter(Policy.defaults(), sourceOf(classes)), classes, name);
    }

    public static byte[] rewritten(ClassRewriter rewriter, Map<String, byte[]> classes, String name) {
        byte[] b = classes.get(name);
        assertNotNull(b, "no class " + name + " among " + classes.keySet());
        RewriteResult r = rewriter.rewrite(b);
        assertEquals(RewriteResult.Status.REWRITTEN, r.status(), () -> name + ": " + r.reason());
        verify(r.bytes());
        return r.bytes();
    }

    /** Textifier lines of the real instructions of a method ({@code name} or {@code name+desc}). */
    public static List<String> of(byte[] classBytes, String method) {
        return of(method(classBytes, method));
    }

    /** Textifier lines of the real instructions of a method. */
    public static List<String> of(MethodNode m) {
        Textifier text = new Textifier();
        TraceMethodVisitor trace = new TraceMethodVisitor(text);
        List<String> lines = new ArrayList<>();
        for (AbstractInsnNode insn = m.instructions.getFirst(); insn != null; insn = insn.getNext()) {
            int before = text.getText().size();
            insn.accept(trace);
            if (insn.getOpcode() < 0) continue;
            StringBuilder sb = new StringBuilder();
            for (Object o : text.getText().subList(before, text.getText().size())) sb.append(o);
            lines.add(sb.toString().strip().replaceAll("\\s*\\n\\s*", " "));
        }
        return inlineFencesNamed(lines);
    }

    /** Each inline acquire fence (the order field's load and its POP) as the one line {@link #ACQUIRE}. */
    private static List<String> inlineFencesNamed(List<String> lines) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).equals(ORDER_LOAD) && i + 1 < lines.size() && lines.get(i + 1).equals("POP")) {
                out.add(ACQUIRE);
                i++;
            } else {
                out.add(lines.get(i));
            }
        }
        return out;
    }

    /** The instructions of every method of a class, one line each. */
    public static List<String> all(byte[] classBytes) {
        List<String> lines = new ArrayList<>();
        for (MethodNode m : node(classBytes).methods) lines.addAll(of(m));
        return lines;
    }

    /** The running JDK's class files, as the ahead-of-time rewrite of the JDK reads them. */
    public static final ClassBytesSource RUNNING_JDK = name -> {
        try (java.io.InputStream in = ClassLoader.getSystemResourceAsStream(name + ".class")) {
            return in == null ? null : in.readAllBytes();
        } catch (java.io.IOException e) {
            return null;
        }
    };

    public static MethodNode method(byte[] classBytes, String method) {
        ClassNode cn = node(classBytes);
        List<MethodNode> found = cn.methods.stream()
                .filter(m -> method.contains("(") ? (m.name + m.desc).equals(method) : m.name.equals(method))
                .collect(Collectors.toList());
        if (found.size() != 1) {
            fail(found.size() + " methods named '" + method + "' in " + cn.name + ": "
                    + cn.methods.stream().map(m -> m.name + m.desc).collect(Collectors.joining(", ")));
        }
        return found.get(0);
    }

    public static FieldNode field(byte[] classBytes, String name) {
        ClassNode cn = node(classBytes);
        return cn.fields.stream().filter(f -> f.name.equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no field " + name + " in " + cn.name));
    }

    public static int access(byte[] classBytes, String field) {
        return field(classBytes, field).access;
    }

    public static ClassNode node(byte[] classBytes) {
        ClassNode cn = new ClassNode();
        new ClassReader(classBytes).accept(cn, 0);
        return cn;
    }

    /**
     * Checks a class file as a class loader would see it: the structural checks of
     * CheckClassAdapter, no field both final and volatile, and a data-flow pass of BasicVerifier
     * over every method, which fails on a stack deeper than max_stack or a local beyond max_locals.
     */
    public static void verify(byte[] classBytes) {
        ClassNode cn = node(classBytes);
        try {
            new ClassReader(classBytes).accept(new CheckClassAdapter(new ClassWriter(0), true), 0);
        } catch (RuntimeException e) {
            fail(cn.name + " fails CheckClassAdapter: " + e.getMessage(), e);
        }
        for (FieldNode f : cn.fields) {
            // JVMS 4.5: a ClassFormatError at definition, which CheckClassAdapter lets through
            if ((f.access & Opcodes.ACC_FINAL) != 0 && (f.access & Opcodes.ACC_VOLATILE) != 0) {
                fail(cn.name + "." + f.name + " is both final and volatile");
            }
        }
        for (MethodNode m : cn.methods) {
            if (m.instructions.size() == 0) continue;
            try {
                new Analyzer<>(new BasicVerifier()).analyze(cn.name, m);
            } catch (AnalyzerException e) {
                fail(cn.name + "." + m.name + m.desc + " is not valid bytecode: " + e.getMessage(), e);
            }
        }
    }

    /**
     * Defines the classes in a fresh loader and links them, so HotSpot's own verifier (type
     * checking against the StackMapTable frames) passes judgement. Linking resolves nothing:
     * the fence calls and the bootstrap method refer to VbdRuntime, absent from this JVM, but
     * they are only resolved when executed.
     */
    public static List<Class<?>> defineAndLink(Map<String, byte[]> classes) {
        ClassLoader loader = new ClassLoader(Bytecode.class.getClassLoader()) {
            @Override
            protected Class<?> findClass(String name) throws ClassNotFoundException {
                byte[] b = classes.get(name.replace('.', '/'));
                if (b == null) throw new ClassNotFoundException(name);
                return defineClass(name, b, 0, b.length);
            }
        };
        List<Class<?>> out = new ArrayList<>();
        for (String name : classes.keySet()) {
            if (name.endsWith("package-info")) continue;
            try {
                Class<?> c = Class.forName(name.replace('/', '.'), false, loader);
                c.getDeclaredMethods(); // links the class, which runs the verifier
                out.add(c);
            } catch (ClassNotFoundException | LinkageError e) {
                throw new AssertionError(name + " does not load: " + e, e);
            }
        }
        return out;
    }
}
