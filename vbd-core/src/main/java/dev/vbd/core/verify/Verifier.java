package dev.vbd.core.verify;

import dev.vbd.core.Conventions;
import dev.vbd.core.analysis.ClassFacts;
import dev.vbd.core.analysis.ConstructorLeaks;
import dev.vbd.core.policy.Policy;
import dev.vbd.core.rewrite.BulkOperations;
import org.objectweb.asm.Opcodes;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

/**
 * Checks class files for sequential consistency by default: every heap access in a method
 * outside a relaxed scope must be SC as the rewrite makes it (see {@link MethodCheck}). Scope
 * comes from the {@link Policy} and from the marker vbd puts on the classes it rewrote; the
 * verifier never rewrites anything itself. A class without the marker runs as compiled: it is
 * counted uncovered, and each of its accesses that is not SC as compiled is a finding.
 */
public final class Verifier {
    private final Policy policy;
    private ClassLookup lookup;
    private Map<String, String> failedRewrites = Map.of();
    private Map<String, String> early = Map.of();
    /** Whether to check safe construction ({@code --mode safe-construction}) rather than SC. */
    private boolean safeConstruction;

    public Verifier(Policy policy) {
        this.policy = policy;
    }

    /** Where to find classes outside the verified set (package descriptors; field owners in static checks). */
    public Verifier lookup(ClassLookup lookup) {
        this.lookup = lookup;
        return this;
    }

    /** Why the rewriter gave up on classes (internal name to message), to explain uncovered classes. */
    public Verifier failedRewrites(Map<String, String> failed) {
        this.failedRewrites = failed;
        return this;
    }

    /**
     * Classes defined before the agent started (internal name to what was done to them): their
     * fields keep their declared modifiers, so they stay uncovered; their accesses are checked.
     */
    public Verifier earlyLoaded(Map<String, String> early) {
        this.early = early;
        return this;
    }

    /**
     * Checks what {@code --mode safe-construction} promises instead of SC: every constructor outside
     * relaxed code has a release fence right before each point at which its object may become
     * visible after one of its stores ({@link ConstructorLeaks#constructionFences}); nothing else.
     * A finding is a constructor point without it; a class without the safe-construction marker is
     * uncovered, and its constructors are checked as compiled.
     */
    public Verifier safeConstruction(boolean on) {
        this.safeConstruction = on;
        return this;
    }

    public VerifyReport verify(Iterable<ClassEntry> entries) {
        return verify(entries, new VerifyReport());
    }

    /** Verifies into an existing report, which may already count classes that could not be inspected. */
    public VerifyReport verify(Iterable<ClassEntry> entries, VerifyReport report) {
        ClassIndex index = new ClassIndex(lookup);
        List<ClassEntry> all = new ArrayList<>();
        entries.forEach(all::add);
        ClassFacts[] facts = new ClassFacts[all.size()];
        String[] unreadable = new String[all.size()];
        IntStream.range(0, all.size()).parallel().forEach(i -> {
            try {
                facts[i] = ClassFacts.read(all.get(i).bytes().get());
            } catch (RuntimeException ex) {
                unreadable[i] = ex.toString();
            }
        });
        for (int i = 0; i < facts.length; i++) {
            if (facts[i] != null) index.add(all.get(i).loader(), facts[i], all.get(i).bytes());
            else report.addUninspectable("?", all.get(i).loader(), "unreadable class file: " + unreadable[i], false);
        }
        Scope scope = new Scope(policy, index);
        if (safeConstruction) report.mode = "safe-construction";
        VerifyReport[] parts = new VerifyReport[facts.length];
        IntStream.range(0, facts.length).parallel().forEach(i -> {
            if (facts[i] == null) return;
            VerifyReport part = new VerifyReport();
            verifyClass(all.get(i), facts[i], index, scope, part);
            parts[i] = part;
        });
        for (VerifyReport part : parts) {
            if (part != null) report.absorb(part);
        }
        return report;
    }

    private void verifyClass(ClassEntry e, ClassFacts facts, ClassIndex index, Scope scope, VerifyReport report) {
        report.classes++;
        report.inspected++;
        String name = facts.name;
        String exclusion = policy.exclusion(name, MethodCheck.jdkLoader(e.loader()));
        if (exclusion == null && facts.isModuleOrPackageInfo()) exclusion = "module or package descriptor";
        if (exclusion != null) {
            report.excluded++;
            report.exclusions.merge(exclusion, 1, Integer::sum);
            return;
        }
        ClassFacts.Marker marker = e.recordedMarker() != null ? e.recordedMarker() : e.bytesMarked() ? facts.marker : null;
        if (safeConstruction) {
            verifyConstruction(e, facts, marker != null && marker.construction ? marker : null, scope, report);
            return;
        }
        Set<String> markedRelaxed = null;
        Set<String> markedArrays = null;
        boolean classRelaxed = false;
        if (marker != null) {
            report.rewritten++;
            markedRelaxed = new HashSet<>(marker.relaxed);
            markedArrays = new HashSet<>(marker.relaxedArrays);
            for (String m : marker.unfenced) {
                report.unfenced.add(new VerifyReport.Unfenced(name.replace('/', '.'), e.loader(), m));
            }
        } else {
            uncovered(e, name, "no vbd marker: runs as compiled", report);
            classRelaxed = scope.classRelaxed(e.loader(), facts);
        }
        ClassCode code = code(e, name, report);
        if (code == null) return;
        boolean jdk = MethodCheck.jdkLoader(e.loader());
        for (ClassCode.Method m : code.methods) {
            if ((m.access() & Opcodes.ACC_NATIVE) != 0 && !jdk) {
                // native code is outside any bytecode check: the program's own is listed, the JDK's is the JDK
                report.natives.add(name.replace('/', '.') + "." + m.key());
            }
            if (m.codeStart() < 0) continue;
            // a rewritten class is relaxed where its marker says; unrewritten code where the policy says
            boolean isRelaxed = markedRelaxed != null ? markedRelaxed.contains(m.key())
                    : policy.methodRelaxed(name, m.name(), m.desc(), facts.relaxedMethods.contains(m.key()), classRelaxed);
            boolean arraysRelaxed = !isRelaxed && (markedArrays != null ? markedArrays.contains(m.key())
                    : policy.arraysRelaxed(name, m.name(), m.desc()));
            MethodCheck check = new MethodCheck(code, m, e.loader(), index, scope, isRelaxed, arraysRelaxed,
                    marker != null && marker.speculative, report);
            try {
                check.run();
            } catch (RuntimeException ex) {
                report.findings.add(new Finding(name, e.loader(), m.key(), 0, Finding.Kind.UNVERIFIABLE,
                        "method code unreadable: " + ex));
                continue;
            }
            if (BulkOperations.isFencedBody(name, m.name())) check.fencedBody();
            if (!isRelaxed && check.orderedSites > 0 && facts.intrinsicMethods.contains(m.key())) {
                report.intrinsics.add(new VerifyReport.Intrinsic(name.replace('/', '.'), m.key(), check.orderedSites));
            }
        }
    }

    private void verifyConstruction(ClassEntry e, ClassFacts facts, ClassFacts.Marker marker, Scope scope, VerifyReport report) {
        String name = facts.name;
        boolean classRelaxed = false;
        if (marker != null) {
            report.rewritten++;
        } else {
            uncovered(e, name, "no safe-construction marker: runs as compiled", report);
            classRelaxed = scope.classRelaxed(e.loader(), facts);
        }
        ClassCode code = code(e, name, report);
        if (code == null) return;
        ConstructorLeaks leaks = scope.leaks(e.loader());
        boolean leakFree = leaks.constructorsLeakFree(code.b);
        Set<String> finals = facts.finalInstanceFields();
        for (ClassCode.Method m : code.methods) {
            if (m.codeStart() < 0 || !m.name().equals("<init>")) continue;
            boolean relaxed = marker != null ? marker.relaxed.contains(m.key())
                    : policy.methodRelaxed(name, m.name(), m.desc(), facts.relaxedMethods.contains(m.key()), classRelaxed);
            try {
                ConstructionCheck.run(code, m, e.loader(), leaks, leakFree, finals, relaxed, report);
            } catch (RuntimeException ex) {
                report.findings.add(new Finding(name, e.loader(), m.key(), 0, Finding.Kind.UNVERIFIABLE,
                        "method code unreadable: " + ex));
            }
        }
    }

    /** The class's code, or null when it cannot be read, which is a finding. */
    private static ClassCode code(ClassEntry e, String name, VerifyReport report) {
        try {
            return new ClassCode(e.bytes().get());
        } catch (RuntimeException ex) {
            report.findings.add(new Finding(name, e.loader(), "<class>", 0, Finding.Kind.UNVERIFIABLE, "class file unreadable: " + ex));
            return null;
        }
    }

    /** Lists a class as uncovered: why its rewrite failed, or why it came before the agent, or {@code otherwise}. */
    private void uncovered(ClassEntry e, String name, String otherwise, VerifyReport report) {
        String why = failedRewrites.get(name);
        String before = early.get(name);
        report.uncovered.add(new VerifyReport.Uncovered(name.replace('/', '.'), e.loader(),
                why != null ? "rewrite failed: " + why : before != null ? before : otherwise));
    }

    /** The policy's answers about classes of the verified set, with package descriptors looked up once. */
    static final class Scope {
        private final Policy policy;
        private final ClassIndex index;
        private final Map<String, Boolean> packages = new ConcurrentHashMap<>();
        private final Map<ClassFacts, Boolean> classes = new ConcurrentHashMap<>();
        private final Map<ClassFacts, Set<String>> unsafeFinals = new ConcurrentHashMap<>();

        private final Map<String, ConstructorLeaks> leaks = new ConcurrentHashMap<>();

        Scope(Policy policy, ClassIndex index) {
            this.policy = policy;
            this.index = index;
        }

        /**
         * Which constructor accesses of a loader's classes happen before their object can have
         * left the constructor: superclasses resolved as from that loader, as the JVM links them.
         */
        ConstructorLeaks leaks(String loader) {
            return leaks.computeIfAbsent(loader, l -> new ConstructorLeaks(name -> {
                ClassIndex.Known k = index.find(l, name);
                return k == null ? null : k.bytes().get();
            }));
        }

        Policy policy() { return policy; }

        /**
         * Whether a final field of class {@code k} has final semantics for every write to it, as the
         * rewrite decides it ({@link ConstructorLeaks#unsafeFinals}); a class whose code cannot be
         * read proves nothing.
         */
        boolean keepsFinal(ClassIndex.Known k, ClassFacts.FieldFact f) {
            if (policy.trustedFinal(k.facts().name)) return true;
            Set<String> unsafe = unsafeFinals.computeIfAbsent(k.facts(), facts -> {
                byte[] b = k.bytes().get();
                if (b == null) return null;
                try {
                    return leaks(k.loader()).unsafeFinals(b);
                } catch (RuntimeException e) {
                    return null;
                }
            });
            return unsafe != null && !unsafe.contains(f.name());
        }

        boolean classRelaxed(String loader, ClassFacts facts) {
            return classes.computeIfAbsent(facts, f -> policy.classRelaxed(f.name, f.relaxedAnnotation, packageRelaxed(loader, f.name)));
        }

        private boolean packageRelaxed(String loader, String className) {
            int slash = className.lastIndexOf('/');
            if (slash < 0) return false;
            String info = className.substring(0, slash) + "/package-info";
            return packages.computeIfAbsent(loader + "\0" + info, k -> {
                ClassIndex.Known known = index.find(loader, info);
                return known != null && known.facts().relaxedAnnotation;
            });
        }
    }

    static boolean isFence(String owner, String name, String desc, String which) {
        return owner.equals(Conventions.RUNTIME) && name.equals(which) && desc.equals(Conventions.FENCE_DESC);
    }
}
