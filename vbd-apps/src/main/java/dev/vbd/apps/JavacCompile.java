package dev.vbd.apps;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
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

/**
 * javac through {@code javax.tools}: a generated source tree compiled in memory, one package per job on
 * a fixed pool of threads, each job with its own compilation task and file manager; then every package
 * is loaded from the class files in memory and run.
 *
 * <p>{@code --size} is the number of generated classes, spread over {@value #PACKAGES} packages. Each class
 * uses records, nested, inner and anonymous classes, generics, lambdas and streams, switch
 * expressions, string switches and concatenation, exceptions and varargs; each package's {@code Main}
 * chains its classes' {@code apply} methods. Self-check: no error diagnostics, the number of class
 * files per package equals what the generator declared, and each package's {@code Main.run} returns
 * the value computed by plain Java from the generator's constants.
 */
public final class JavacCompile extends Workload {

    private static final long SEED = 0x7A7AC0DEL;
    private static final int PACKAGES = 4;
    /** class files per generated class: the class, its record, its inner class, its anonymous class */
    private static final int FILES_PER_CLASS = 4;
    /** per package, besides the classes: Main, Base, Step */
    private static final int FILES_PER_PACKAGE = 3;
    private static final int MODULUS = 1009;

    public static void main(String[] args) {
        new JavacCompile().main("javac", args, 20);
    }

    /** The constants of one generated class. */
    private record Spec(int index, long a, long b, int n) {}

    /** The classes of package {@code p}, from the package's own seed. */
    private static List<Spec> specs(int p, int classes) {
        Random r = new Random(SEED + p);
        List<Spec> specs = new ArrayList<>();
        for (int i = 0; i < classes; i++) {
            specs.add(new Spec(i, 1 + r.nextInt(100_000), r.nextInt(1_000_000), 5 + r.nextInt(60)));
        }
        return specs;
    }

    /** What the generated {@code apply} of {@code s} computes, written directly. */
    private static long apply(Spec s, long x) {
        long sum = 0;
        for (int k = 0; k < s.n(); k++) {
            if (k % 3 != 0) sum += (k * s.a() + x) % MODULUS;
        }
        return switch ((int) Math.floorMod(x, 3L)) {
            case 0 -> sum + s.b();
            case 1 -> sum ^ s.b();
            default -> sum - s.b();
        };
    }

    private static String pkg(int p) {
        return "gen.p" + p;
    }

    /**
     * One generated class: %1$s its package, %2$s its name, %3$s to %5$s its constants A, B and N,
     * %6$s the modulus, %7$s its index.
     */
    private static final String SOURCE = """
                package %1$s;

                import java.util.ArrayList;
                import java.util.Collections;
                import java.util.Iterator;
                import java.util.List;
                import java.util.Map;
                import java.util.TreeMap;
                import java.util.function.LongUnaryOperator;

                public final class %2$s extends Base<%2$s> implements Step {
                    static final long A = %3$dL;
                    static final long B = %4$dL;
                    static final int N = %5$d;

                    record Part(long k, long v) implements Comparable<Part> {
                        Part {
                            if (k < 0) throw new IllegalArgumentException("negative k " + k);
                        }

                        @Override
                        public int compareTo(Part o) {
                            int c = Long.compare(v, o.v);
                            return c != 0 ? c : Long.compare(k, o.k);
                        }
                    }

                    final class Window implements Iterable<Long> {
                        private final long from;

                        Window(long from) {
                            this.from = from;
                        }

                        @Override
                        public Iterator<Long> iterator() {
                            return new Iterator<>() {
                                private long next = from;

                                @Override
                                public boolean hasNext() {
                                    return next < from + N;
                                }

                                @Override
                                public Long next() {
                                    return next++ * A %% %6$d;
                                }
                            };
                        }
                    }

                    %2$s() {
                        super("%2$s", %7$d);
                    }

                    @Override
                    public long apply(long x) {
                        List<Part> parts = new ArrayList<>();
                        for (int k = 0; k < N; k++) parts.add(new Part(k, (k * A + x) %% %6$d));
                        Collections.sort(parts);
                        long s = parts.stream().filter(p -> p.k() %% 3 != 0).mapToLong(Part::v).sum();
                        return switch ((int) Math.floorMod(x, 3L)) {
                            case 0 -> s + B;
                            case 1 -> s ^ B;
                            default -> s - B;
                        };
                    }

                    @SafeVarargs
                    static <T extends Comparable<T>> T max(T first, T... rest) {
                        T m = first;
                        for (T t : rest) if (t.compareTo(m) > 0) m = t;
                        return m;
                    }

                    String describe(String mode) {
                        Map<String, Long> totals = new TreeMap<>();
                        for (long v : new Window(B %% 17)) totals.merge(v %% 2 == 0 ? "even" : "odd", v, Long::sum);
                        LongUnaryOperator twice = v -> v * 2;
                        String tail = switch (mode) {
                            case "short" -> "";
                            case "long" -> " totals=" + totals + " max=" + max(A, B, (long) N);
                            default -> {
                                try {
                                    yield " parsed=" + Long.parseLong(mode);
                                } catch (NumberFormatException e) {
                                    yield " mode=" + mode.length();
                                }
                            }
                        };
                        return label() + "#" + twice.applyAsLong(N) + tail;
                    }
                }
                """;

    private static String source(int p, Spec s) {
        return SOURCE.formatted(pkg(p), "C" + s.index(), s.a(), s.b(), s.n(), MODULUS, s.index());
    }

    private static String base(int p) {
        return """
                package %s;

                public abstract class Base<T extends Base<T>> implements Comparable<Base<?>> {
                    private final String name;
                    private final int rank;

                    protected Base(String name, int rank) {
                        this.name = name;
                        this.rank = rank;
                    }

                    public final String label() {
                        return name + "/" + rank;
                    }

                    @Override
                    public int compareTo(Base<?> o) {
                        return Integer.compare(rank, o.rank);
                    }
                }
                """.formatted(pkg(p));
    }

    private static String step(int p) {
        return """
                package %s;

                public interface Step {
                    long apply(long x);

                    default Step then(Step next) {
                        return x -> next.apply(apply(x));
                    }
                }
                """.formatted(pkg(p));
    }

    private static String mainClass(int p, List<Spec> specs) {
        StringBuilder b = new StringBuilder();
        b.append("package ").append(pkg(p)).append(";\n\npublic final class Main {\n")
                .append("    public static long run(long x) {\n        Step s = new C0();\n");
        for (int i = 1; i < specs.size(); i++) b.append("        s = s.then(new C").append(i).append("());\n");
        b.append("        return s.apply(x);\n    }\n}\n");
        return b.toString();
    }

    private static final class Source extends SimpleJavaFileObject {
        private final String code;

        Source(String className, String code) {
            super(URI.create("string:///" + className.replace('.', '/') + Kind.SOURCE.extension), Kind.SOURCE);
            this.code = code;
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return code;
        }
    }

    /** Keeps the class files javac writes, by binary name. */
    private static final class InMemory extends ForwardingJavaFileManager<StandardJavaFileManager> {
        final Map<String, byte[]> classes = new ConcurrentHashMap<>();

        InMemory(StandardJavaFileManager fm) {
            super(fm);
        }

        @Override
        public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind,
                                                   FileObject sibling) {
            return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + kind.extension), kind) {
                @Override
                public OutputStream openOutputStream() {
                    return new ByteArrayOutputStream() {
                        @Override
                        public void close() {
                            classes.put(className, toByteArray());
                        }
                    };
                }
            };
        }
    }

    private static final class MemoryLoader extends ClassLoader {
        private final Map<String, byte[]> classes;

        MemoryLoader(Map<String, byte[]> classes) {
            super(JavacCompile.class.getClassLoader());
            this.classes = classes;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            byte[] b = classes.get(name);
            if (b == null) throw new ClassNotFoundException(name);
            return defineClass(name, b, 0, b.length);
        }
    }

    @Override
    protected String iteration(Options options, int index) throws Exception {
        int size = options.size();
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        check(javac != null, "the JDK has a system Java compiler (java.compiler/jdk.compiler modules)");
        List<String> lines = inParallel(options.threads(), PACKAGES, p -> {
            List<Spec> specs = specs(p, size / PACKAGES + (p < size % PACKAGES ? 1 : 0));
            List<JavaFileObject> sources = new ArrayList<>();
            long sourceLines = 0;
            for (Spec s : specs) sources.add(new Source(pkg(p) + ".C" + s.index(), source(p, s)));
            sources.add(new Source(pkg(p) + ".Base", base(p)));
            sources.add(new Source(pkg(p) + ".Step", step(p)));
            sources.add(new Source(pkg(p) + ".Main", mainClass(p, specs)));
            for (JavaFileObject f : sources) sourceLines += f.getCharContent(true).toString().lines().count();

            DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
            InMemory files = new InMemory(javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8));
            boolean ok;
            try (files) {
                ok = javac.getTask(null, files, diagnostics, List.of("-proc:none", "-g"), null, sources).call();
            }
            List<String> errors = new ArrayList<>();
            for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                if (d.getKind() == Diagnostic.Kind.ERROR) errors.add(d.toString());
            }
            check(ok && errors.isEmpty(), pkg(p) + " compiles without errors: " + errors);
            int expectedFiles = FILES_PER_CLASS * specs.size() + FILES_PER_PACKAGE;
            check(files.classes.size() == expectedFiles, pkg(p) + ": " + files.classes.size()
                    + " class files, expected " + expectedFiles + ": " + files.classes.keySet());

            Class<?> main = new MemoryLoader(files.classes).loadClass(pkg(p) + ".Main");
            Method run = main.getMethod("run", long.class);
            long value = (long) run.invoke(null, (long) p);
            long expected = p;
            for (Spec s : specs) expected = apply(s, expected);
            check(value == expected, pkg(p) + ".Main.run(" + p + ") returned " + value + ", expected " + expected);
            return String.format(Locale.ROOT, "%s classes=%d source_lines=%d class_files=%d run=%d%n",
                    pkg(p), specs.size(), sourceLines, files.classes.size(), value);
        });
        StringBuilder out = new StringBuilder();
        out.append("javac: classes=").append(size).append(" packages=").append(PACKAGES).append('\n');
        for (String l : lines) out.append(l);
        return out.toString();
    }
}
