package dev.vbd.agent;

import dev.vbd.core.Conventions;
import dev.vbd.core.analysis.ConstructorLeaks;
import dev.vbd.core.layout.Layout;
import dev.vbd.core.layout.LayoutException;
import dev.vbd.core.policy.Policy;
import dev.vbd.core.rewrite.ClassRewriter;
import dev.vbd.core.rewrite.FieldMode;
import dev.vbd.core.rewrite.FieldOracle;
import dev.vbd.core.rewrite.GeneratedArrayFences;
import dev.vbd.core.rewrite.JdkFencedFields;
import dev.vbd.core.rewrite.Optimisations;
import dev.vbd.core.rewrite.RewriteException;
import dev.vbd.core.rewrite.RewriteResult;
import dev.vbd.core.rewrite.RewriteStore;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The rewrite of a class on its way to the JVM, whoever hands it over: vbd's agent
 * ({@link VbdTransformer}) or the prepared runtime image's own define path ({@link ImageRewriting}).
 * One rewriter per defining loader, held weakly; a class that cannot be rewritten stops the
 * program, or with skipUnrewritable runs unchanged and is reported.
 *
 * <p>The cold path has no lambdas, streams or regular expressions: in the runtime image this
 * runs before {@code main}, and each of them costs the first program class a bootstrap.
 */
final class LoadTimeRewriter {
    static final int EXIT_UNREWRITABLE = 125;
    static final int EXIT_BAD_SETUP = 2;
    private static final byte[] MARKER = Conventions.MARKER_DESC.getBytes(StandardCharsets.UTF_8);

    private final Policy policy;
    private final boolean skipUnrewritable;
    /** How the program's classes make their fields SC ({@link ClassRewriter#fields}). */
    private final FieldMode fields;
    private final RewriteStats stats;
    private final DeclaredModifiers declared;
    /** Whether loaders are read on the defining thread: the image's define path, unlike an agent, may be re-entered. */
    private final boolean readOnThisThread;
    /** Weak keys; a rewriter holds its loader only weakly, so an unused loader can still be collected. */
    private final Map<ClassLoader, ClassRewriter> rewriters = new WeakHashMap<>();
    /** One per loader, shared with the sources of the loaders that ask it first; weak keys, as above. */
    private final Map<ClassLoader, LoaderBytesSource> sources = new WeakHashMap<>();
    private ClassRewriter bootRewriter;
    private ClassRewriter bootClassPathRewriter;
    private FieldOracle plainInJvm;
    private RewriteStore store;
    private JdkFencedFields jdkFenced;
    private Optimisations optimisations = Optimisations.ALL;
    private Layout layout = Layout.NONE;
    /** The prepared JDK's class files, against which program loaders' rewriters check a marker. */
    private final JdkClassBytes jdkClasses = new JdkClassBytes();
    /** Told of each class rewritten (verify mode), or null. */
    private volatile Rewrites rewrites;

    /** Hears of each class this rewrites, with the bytes it gives the JVM, and of each whose marker it believes. */
    interface Rewrites {
        void rewritten(ClassLoader loader, String className, byte[] bytes);
    }

    LoadTimeRewriter(Policy policy, boolean skipUnrewritable, FieldMode fields, RewriteStats stats,
                     DeclaredModifiers declared, boolean readOnThisThread) {
        this.policy = policy;
        this.skipUnrewritable = skipUnrewritable;
        this.fields = fields == null ? FieldMode.VOLATILE : fields;
        this.stats = stats;
        this.declared = declared;
        this.readOnThisThread = readOnThisThread;
    }

    /** The class file to define instead of {@code bytes}, or null to define it as it is. */
    byte[] rewrite(ClassLoader loader, String className, byte[] bytes) {
        return rewrite(loader, className, bytes, false);
    }

    /**
     * As {@link #rewrite(ClassLoader, String, byte[])}; {@code bootClassPath}: the boot loader defines
     * the class in its unnamed module, from {@code -Xbootclasspath/a}: the program's, not the JDK's.
     */
    byte[] rewrite(ClassLoader loader, String className, byte[] bytes, boolean bootClassPath) {
        boolean jdk = jdkLoader(loader) && !bootClassPath;
        // With a store the kept rewrite is looked for first: a class that carries the marker is never
        // kept, and the rewriter recognises it by parsing; this byte scan costs every class that is kept.
        // Only the JDK's own loaders' classes pass on it: any class file may hold the marker's bytes.
        if (store == null && jdk && containsMarker(bytes)) {
            stats.alreadyRewritten.incrementAndGet();
            return null;
        }
        try {
            RewriteResult r;
            Defining.enter(bytes);
            try {
                r = (bootClassPath ? bootClassPathRewriter() : rewriterFor(loader)).rewrite(bytes, skipUnrewritable);
            } finally {
                Defining.exit();
            }
            switch (r.status()) {
                case REWRITTEN:
                    stats.rewritten.incrementAndGet();
                    declared.record(loader, r.className(), r.flipped(), r.unfinal());
                    Rewrites listener = rewrites;
                    if (listener != null) listener.rewritten(loader, r.className(), r.bytes());
                    for (Map.Entry<String, String> u : r.unfenced().entrySet()) {
                        String where = r.className() + "." + u.getKey();
                        stats.failed.put(where, where + ": " + u.getValue());
                        System.err.println("vbd: warning: method left unfenced (its array, bulk and weak-mode accesses"
                                + " are not sequentially consistent): " + where + " " + u.getValue());
                    }
                    return r.bytes();
                case ALREADY_REWRITTEN: {
                    stats.alreadyRewritten.incrementAndGet();
                    // a marker the rewriter believed (the prepared JDK's own class file, which a JDK
                    // class loader of its own, such as reflection's trampoline loader, may define)
                    Rewrites told = rewrites;
                    if (told != null) told.rewritten(loader, r.className(), bytes);
                    return null;
                }
                default:
                    stats.excluded.incrementAndGet();
                    return null;
            }
        } catch (RewriteException e) {
            return fail(e.className(), e.getMessage());
        } catch (Throwable t) {
            return fail(className, className + ": " + t);
        }
    }

    byte[] fail(String className, String message) {
        if (skipUnrewritable) {
            stats.failed.put(className, message);
            System.err.println("vbd: warning: class left unrewritten (not sequentially consistent): " + message);
            return null;
        }
        System.err.println("vbd: cannot rewrite class " + message);
        System.err.println("vbd: stopping; --skip-unrewritable runs on with such classes uncovered and reported");
        System.err.flush();
        Runtime.getRuntime().halt(EXIT_UNREWRITABLE);
        return null;
    }

    /** Stops the JVM before the program runs: vbd cannot start as asked. */
    static void die(String message) {
        System.err.println("vbd: " + message);
        System.err.flush();
        Runtime.getRuntime().halt(EXIT_BAD_SETUP);
    }

    /** The layout in {@code file} (none for null); stops the JVM and returns null when it cannot be read. */
    static Layout layoutOrDie(java.nio.file.Path file) {
        if (file == null) return Layout.NONE;
        try {
            return Layout.load(file);
        } catch (LayoutException e) {
            die("bad layout: " + e.getMessage());
            return null;
        }
    }

    /**
     * How the program's fields are made SC: as {@code asked}, or, when the options do not say, as
     * the JDK in {@code dir} was prepared ({@code fields.txt}; volatile if it does not say). When
     * the JDK cannot serve the mode asked for, stops the JVM and returns null: the JDK's own fields
     * must be fenced exactly when the program's stay plain ({@link FieldMode#jdk()}), or the
     * program's classes would access them without the fences they need.
     */
    static FieldMode programFieldsOrDie(File dir, FieldMode asked) {
        FieldMode prepared = preparedFields(dir);
        if (asked == null) return prepared == null ? FieldMode.VOLATILE : prepared;
        if (prepared == null || prepared == asked.jdk()) return asked;
        if (!asked.sc() || !prepared.sc()) {
            String option = !asked.sc() ? "--mode safe-construction" : "--fields " + asked.word();
            die("the JDK prepared in " + dir + " is " + (prepared.sc() ? "for sequential consistency" : "for safe construction")
                    + ", and the program asks for " + (asked.sc() ? "sequential consistency" : "safe construction")
                    + "; start the program through 'bin/vbd run " + option + "', or use the options 'bin/vbd jvm-args "
                    + option + "' prints");
            return null;
        }
        die("the JDK prepared in " + dir + " has " + prepared.word() + " fields, and " + asked.word()
                + " fields need one prepared with " + asked.jdk().word() + " fields; start the program through"
                + " 'bin/vbd run --fields " + asked.word() + "', or use the options 'bin/vbd jvm-args --fields "
                + asked.word() + "' prints");
        return null;
    }

    /** How the JDK in {@code dir} made its fields SC, or null when the directory does not say (or none is known). */
    static FieldMode preparedFields(File dir) {
        if (dir == null) return null;
        try (FileInputStream in = new FileInputStream(new File(dir, "fields.txt"))) {
            return FieldMode.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).trim());
        } catch (IOException e) {
            return null;
        }
    }

    /** Tells {@code listener} of each class rewritten from now on. */
    void onRewritten(Rewrites listener) {
        this.rewrites = listener;
    }

    /** Whether the boot or platform class loader: they define nothing but the prepared JDK's classes. */
    static boolean jdkLoader(ClassLoader loader) {
        return loader == null || loader == ClassLoader.getPlatformClassLoader();
    }

    /** Fields that stay plain in the JVM ({@link EarlyClasses}); call before the first rewrite. */
    synchronized void fenceFields(FieldOracle plain) {
        this.plainInJvm = plain;
    }

    /**
     * Takes which fields of the JDK prepared in {@code dir} need fences from its table, as far as
     * this JVM may use it ({@link ClassRewriter#jdkFencedFields}); call before the first rewrite.
     */
    synchronized void jdkFencedFields(File dir) {
        this.jdkFenced = dir == null ? null : JdkFencedFields.of(dir, System.getProperties());
    }

    /**
     * Which accesses stay plain because no other thread can see them ({@link ClassRewriter#optimise});
     * call before the first rewrite.
     */
    synchronized void optimise(Optimisations which) {
        this.optimisations = which;
    }

    /** Where the program's fields lie ({@link ClassRewriter#layout}); call before the first rewrite. */
    synchronized void layout(Layout which) {
        this.layout = which;
    }

    /** Where rewrites are kept between runs ({@link ClassRewriter#store}); call before the first rewrite. */
    synchronized void store(RewriteStore store) {
        this.store = store;
    }

    synchronized ClassRewriter rewriterFor(ClassLoader loader) {
        if (loader == null) {
            if (bootRewriter == null) bootRewriter = newRewriter(null, true);
            return bootRewriter;
        }
        ClassRewriter r = rewriters.get(loader);
        if (r == null) {
            r = newRewriter(loader, loader == ClassLoader.getPlatformClassLoader());
            rewriters.put(loader, r);
        }
        return r;
    }

    /** The rewriter of the program's classes on the boot class path: the boot loader's bytes, a program's trust. */
    private synchronized ClassRewriter bootClassPathRewriter() {
        if (bootClassPathRewriter == null) {
            bootClassPathRewriter = new ClassRewriter(policy, new LoaderBytesSource(null, readOnThisThread), false)
                    .fenceFields(plainInJvm).fields(fields).optimise(optimisations).layout(layout).store(store)
                    .jdkFencedFields(jdkFenced).jdkClasses(jdkClasses);
        }
        return bootClassPathRewriter;
    }

    private ClassRewriter newRewriter(ClassLoader loader, boolean jdkLoader) {
        boolean jdk = jdkLoader || loader == null;
        ClassRewriter r = new ClassRewriter(policy, loader == null ? new LoaderBytesSource(null, readOnThisThread)
                : sourceFor(loader), jdk)
                .fenceFields(plainInJvm).fields(jdk ? fields.jdk() : fields)
                .optimise(optimisations).store(store);
        if (jdk) return r;
        return r.layout(layout).jdkFencedFields(jdkFenced).jdkClasses(jdkClasses).superclassesLinkedBy(new Linked(sourceFor(loader)));
    }

    /** The superclasses of one loader's classes, as that loader links them (a class, not a lambda: see above). */
    private final class Linked implements ConstructorLeaks.Linker {
        private final LoaderBytesSource source;

        Linked(LoaderBytesSource source) {
            this.source = source;
        }

        @Override
        public boolean leakFree(String internalName) {
            return linkedLeakFree(source, internalName);
        }
    }

    /**
     * Whether no constructor of the class that {@code name} resolves to from the loader behind
     * {@code source} can leak {@code this}, judged as the JVM will link it: the class its loader
     * resolves, analysed from the bytes it was defined from, which that class's own loader
     * recorded as it rewrote it. The JDK's classes come from the prepared JDK, as its loaders find
     * them. A class that cannot be resolved, or whose bytes are not known (defined before vbd
     * started, or found under its name as something else), counts as leaking.
     */
    private boolean linkedLeakFree(LoaderBytesSource source, String name) {
        Class<?> linked = source.resolve(name);
        if (linked == null) return false;
        ClassLoader definer = linked.getClassLoader();
        ClassRewriter r = rewriterFor(definer);
        return definer == null || definer == ClassLoader.getPlatformClassLoader()
                ? r.leakFree(name) : r.definedLeakFree(name);
    }

    private LoaderBytesSource sourceFor(ClassLoader loader) {
        LoaderBytesSource s = sources.get(loader);
        if (s == null) {
            LoaderBytesSource parent = LoaderBytesSource.asksParentFirst(loader) ? sourceFor(loader.getParent()) : null;
            s = new LoaderBytesSource(loader, readOnThisThread, parent);
            sources.put(loader, s);
        }
        return s;
    }

    /**
     * java.lang.invoke's generated code with its array element accesses fenced
     * ({@link GeneratedArrayFences}), or null when it has none. Kept in the store like any rewrite
     * (an empty class file standing for "none"): a program started again spins the same method
     * handles' classes from the same bytes, and takes them from there without parsing them.
     */
    byte[] fenceGenerated(String lookup, byte[] bytes) {
        RewriteStore kept = store;
        if (kept != null) {
            try {
                RewriteStore.Kept k = kept.find(GENERATED_KIND, bytes);
                if (k != null) {
                    kept.hits.incrementAndGet();
                    return k.result().bytes().length == 0 ? null : k.result().bytes();
                }
            } catch (RuntimeException e) {
                // the store is a cache: the class is fenced anew
            }
        }
        byte[] fenced = GeneratedArrayFences.fence(bytes);
        if (kept != null) {
            try {
                kept.put(GENERATED_KIND, bytes, new RewriteResult(lookup, RewriteResult.Status.REWRITTEN,
                        fenced == null ? new byte[0] : fenced, null, List.of(), List.of(), List.of()), List.of());
            } catch (RuntimeException e) {
                // not kept; the fences stand
            }
        }
        return fenced;
    }

    /** The kind of rewrite {@link #fenceGenerated} keeps in the store, apart from every rewriter's. */
    private static final String GENERATED_KIND = "generated-arrays";

    static boolean containsMarker(byte[] bytes) {
        outer:
        for (int i = 0, n = bytes.length - MARKER.length; i <= n; i++) {
            for (int j = 0; j < MARKER.length; j++) {
                if (bytes[i + j] != MARKER[j]) continue outer;
            }
            return true;
        }
        return false;
    }

    /**
     * Rewrites a small class of its own making, so that every class the rewrite needs is loaded
     * before the agent's transformer is registered: were the first of them loaded through it (the
     * agent's jar sits on a custom system class loader's path), its own rewrite would need it while
     * it is still being loaded, a ClassCircularityError.
     */
    void warmUp() {
        rewriterFor(null).rewrite(ExerciseClass.generate("vbd$WarmUp"));
    }
}
