package dev.vbd.core.policy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Relaxed scopes from a plain-text file, for code the user cannot annotate (the JDK, third-party
 * jars). One rule a line; {@code #} starts a comment.
 *
 * <pre>
 * class   com.example.Matrix                 # the class: all its methods and fields
 * class   com.example.kernels.*              # every class of a package (not sub-packages)
 * method  com.example.Matrix#multiply        # every overload
 * method  com.example.Matrix#multiply([D[D)V # one overload, by JVM descriptor
 * method  java.util.HashMap#*                # every method of a JDK class
 * field   com.example.Stats#hits             # one field: never made volatile
 * arrays  com.example.Matrix#multiply        # only the method's array element accesses
 * package com.example.kernels                # the package
 * package com.example.kernels.**             # the package and its sub-packages
 * </pre>
 *
 * Names are dotted Java names with {@code $} for nested classes; {@code *} matches within a
 * name segment, {@code **} across segments.
 */
public final class RelaxedConfig {
    enum Kind { CLASS, METHOD, FIELD, PACKAGE, ARRAYS }

    record Rule(Kind kind, NamePattern owner, NamePattern member, String descriptor, String source) {}

    private final List<Rule> rules;

    private RelaxedConfig(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    public static RelaxedConfig empty() {
        return new RelaxedConfig(List.of());
    }

    public static RelaxedConfig load(Path file) throws RelaxedConfigException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new RelaxedConfigException(file.toString(), 0, "cannot read: " + e.getMessage());
        } catch (java.io.UncheckedIOException e) {
            throw new RelaxedConfigException(file.toString(), 0, "cannot read: " + e.getMessage());
        }
        return parse(file.toString(), lines);
    }

    public static RelaxedConfig parse(String fileName, List<String> lines) throws RelaxedConfigException {
        List<Rule> rules = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int hash = line.indexOf('#');
            // '#' separates class and member too: a comment starts only at line start or after whitespace
            while (hash >= 0 && hash > 0 && !Character.isWhitespace(line.charAt(hash - 1))) {
                hash = line.indexOf('#', hash + 1);
            }
            if (hash >= 0) {
                line = line.substring(0, hash);
            }
            line = line.strip();
            if (line.isEmpty()) {
                continue;
            }
            rules.add(parseRule(fileName, i + 1, line));
        }
        return new RelaxedConfig(rules);
    }

    private static Rule parseRule(String file, int lineNo, String line) throws RelaxedConfigException {
        String[] parts = words(line);
        if (parts.length != 2) {
            throw new RelaxedConfigException(file, lineNo,
                    "expected '<class|method|field|arrays|package> <pattern>', got '" + line + "'");
        }
        String kindWord = parts[0];
        String target = parts[1];
        Kind kind;
        switch (kindWord) {
            case "class": kind = Kind.CLASS; break;
            case "method": kind = Kind.METHOD; break;
            case "field": kind = Kind.FIELD; break;
            case "package": kind = Kind.PACKAGE; break;
            case "arrays": kind = Kind.ARRAYS; break;
            default:
                throw new RelaxedConfigException(file, lineNo,
                        "unknown rule kind '" + kindWord + "' (expected class, method, field, arrays or package)");
        }
        if (kind == Kind.CLASS || kind == Kind.PACKAGE) {
            if (target.contains("#") || target.contains("(")) {
                throw new RelaxedConfigException(file, lineNo,
                        kindWord + " rule takes a " + kindWord + " name, not a member: '" + target + "'");
            }
            checkName(file, lineNo, target, kindWord + " name");
            return new Rule(kind, NamePattern.compile(target), null, null, file + ":" + lineNo);
        }
        int sharp = target.indexOf('#');
        if (sharp <= 0 || sharp == target.length() - 1) {
            throw new RelaxedConfigException(file, lineNo,
                    kindWord + " rule needs 'Class#" + (kind == Kind.FIELD ? "field" : "method") + "', got '" + target + "'");
        }
        String owner = target.substring(0, sharp);
        String member = target.substring(sharp + 1);
        String descriptor = null;
        if (kind == Kind.METHOD || kind == Kind.ARRAYS) {
            int paren = member.indexOf('(');
            if (paren >= 0) {
                descriptor = member.substring(paren);
                member = member.substring(0, paren);
                if (!validMethodDescriptor(descriptor)) {
                    throw new RelaxedConfigException(file, lineNo,
                            "bad method descriptor '" + descriptor + "' (expected JVM form, e.g. (I[J)V)");
                }
            }
        } else if (member.contains("(")) {
            throw new RelaxedConfigException(file, lineNo, "field rule cannot have a descriptor: '" + target + "'");
        }
        checkName(file, lineNo, owner, "class name");
        if (member.isEmpty() || !allNameChars(member, "*<>")) {
            throw new RelaxedConfigException(file, lineNo, "bad member name '" + member + "'");
        }
        return new Rule(kind, NamePattern.compile(owner), NamePattern.compile(member), descriptor, file + ":" + lineNo);
    }

    private static void checkName(String file, int lineNo, String name, String what) throws RelaxedConfigException {
        if (name.isEmpty() || name.startsWith(".") || name.endsWith(".") || name.contains("..") || name.contains("/")) {
            throw new RelaxedConfigException(file, lineNo, "bad " + what + " '" + name + "' (use dotted names, e.g. com.example.Foo)");
        }
        for (String seg : name.split("\\.")) {
            if (!allNameChars(seg, "*$")) {
                throw new RelaxedConfigException(file, lineNo, "bad " + what + " '" + name + "'");
            }
        }
    }

    /** The words of a line, split at runs of whitespace (the line is stripped). */
    private static String[] words(String line) {
        List<String> words = new ArrayList<>();
        int i = 0;
        while (i < line.length()) {
            int start = i;
            while (i < line.length() && !Character.isWhitespace(line.charAt(i))) i++;
            words.add(line.substring(start, i));
            while (i < line.length() && Character.isWhitespace(line.charAt(i))) i++;
        }
        return words.toArray(new String[0]);
    }

    /** Whether every character of {@code s} may stand in a Java name, or is one of {@code extra}. */
    private static boolean allNameChars(String s, String extra) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (extra.indexOf(c) < 0 && !Character.isJavaIdentifierPart(c)) return false;
        }
        return true;
    }

    /** A method descriptor in the JVM's form: {@code (} field types {@code )} a field type or {@code V}. */
    private static boolean validMethodDescriptor(String d) {
        if (!d.startsWith("(")) return false;
        int at = 1;
        while (at < d.length() && d.charAt(at) != ')') {
            at = fieldTypeEnd(d, at);
            if (at < 0) return false;
        }
        if (at >= d.length()) return false;
        at++;
        if (d.length() == at + 1 && d.charAt(at) == 'V') return true;
        return fieldTypeEnd(d, at) == d.length();
    }

    /** Where the field type starting at {@code at} ends, or -1 if none starts there. */
    private static int fieldTypeEnd(String d, int at) {
        while (at < d.length() && d.charAt(at) == '[') at++;
        if (at >= d.length()) return -1;
        char c = d.charAt(at);
        if ("ZBCSIJFD".indexOf(c) >= 0) return at + 1;
        if (c != 'L') return -1;
        int semi = d.indexOf(';', at);
        return semi > at + 1 ? semi + 1 : -1;
    }

    /** Dotted class name, e.g. {@code java.util.HashMap}. */
    boolean classRelaxed(String dottedClass) {
        String pkg = packageOf(dottedClass);
        for (Rule r : rules) {
            if (r.kind == Kind.CLASS && r.owner.matches(dottedClass)) return true;
            if (r.kind == Kind.PACKAGE && r.owner.matches(pkg)) return true;
        }
        return false;
    }

    boolean methodRelaxed(String dottedClass, String name, String desc) {
        return methodRule(Kind.METHOD, dottedClass, name, desc);
    }

    /** Whether only the method's array element accesses are relaxed (an {@code arrays} rule). */
    boolean arraysRelaxed(String dottedClass, String name, String desc) {
        return methodRule(Kind.ARRAYS, dottedClass, name, desc);
    }

    private boolean methodRule(Kind kind, String dottedClass, String name, String desc) {
        for (Rule r : rules) {
            if (r.kind == kind && r.owner.matches(dottedClass) && r.member.matches(name)
                    && (r.descriptor == null || r.descriptor.equals(desc))) {
                return true;
            }
        }
        return false;
    }

    boolean fieldRelaxed(String dottedClass, String name) {
        for (Rule r : rules) {
            if (r.kind == Kind.FIELD && r.owner.matches(dottedClass) && r.member.matches(name)) return true;
        }
        return false;
    }

    public int size() { return rules.size(); }

    /**
     * Could any rule apply to one of these classes (dotted names)? The launcher asks this of the
     * JDK's classes: a config that reaches none of them can share the JDK prepared without it.
     */
    public boolean reachesAny(Iterable<String> dottedClassNames) {
        // literal names by set: a generated config can hold thousands of rules, the JDK tens of thousands of classes
        java.util.Set<String> classes = new java.util.HashSet<>();
        java.util.Set<String> packages = new java.util.HashSet<>();
        List<Rule> patterns = new ArrayList<>();
        for (Rule r : rules) {
            if (!r.owner.isLiteral()) patterns.add(r);
            else (r.kind == Kind.PACKAGE ? packages : classes).add(r.owner.toString());
        }
        for (String cls : dottedClassNames) {
            String pkg = packageOf(cls);
            if (classes.contains(cls) || packages.contains(pkg)) return true;
            for (Rule r : patterns) {
                if (r.kind == Kind.PACKAGE ? r.owner.matches(pkg) : r.owner.matches(cls)) return true;
            }
        }
        return false;
    }

    static String packageOf(String dottedClass) {
        int dot = dottedClass.lastIndexOf('.');
        return dot < 0 ? "" : dottedClass.substring(0, dot);
    }
}
