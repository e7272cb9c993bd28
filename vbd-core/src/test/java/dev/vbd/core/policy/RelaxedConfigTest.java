package dev.vbd.core.policy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The relaxed-scope config file: syntax, error reports and glob semantics. */
class RelaxedConfigTest {
    private static Path resource(String name) {
        try {
            return Path.of(RelaxedConfigTest.class.getResource(name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static RelaxedConfig parse(String... lines) throws RelaxedConfigException {
        return RelaxedConfig.parse("test.relaxed", List.of(lines));
    }

    @Test
    void validFileWithEveryKindOfRule() throws Exception {
        RelaxedConfig c = RelaxedConfig.load(resource("valid.relaxed"));
        assertEquals(8, c.size());
        assertTrue(c.classRelaxed("com.example.Matrix"));
        assertFalse(c.classRelaxed("com.example.Matrix2"));
        assertTrue(c.classRelaxed("com.example.kernels.Blas"));
        assertTrue(c.methodRelaxed("com.example.Vector", "dot", "([D[D)D"));
        assertTrue(c.methodRelaxed("com.example.Vector", "dot", "([F[F)F"));
        assertTrue(c.methodRelaxed("com.example.Vector", "scale", "([DD)V"));
        assertFalse(c.methodRelaxed("com.example.Vector", "scale", "([FF)V"));
        assertTrue(c.methodRelaxed("com.example.Vector", "<init>", "()V"));
        assertFalse(c.methodRelaxed("com.example.Vector", "norm", "()D"));
        assertTrue(c.fieldRelaxed("com.example.Stats", "hits"));
        assertTrue(c.fieldRelaxed("com.example.Stats", "misses"));
        assertFalse(c.fieldRelaxed("com.example.Stats", "total"));
        assertTrue(c.classRelaxed("com.example.gen.Parser"));
        assertTrue(c.classRelaxed("com.example.gen.ast.Node"));
    }

    @Test
    void commentsAndBlankLinesAreIgnored() throws Exception {
        RelaxedConfig c = parse("", "   ", "\t", "# comment", "   # indented comment",
                "class a.B # trailing comment", "method a.C#m\t# after a tab", "field a.D#f");
        // a '#' with no whitespace before it separates class and member and is no comment
        assertEquals(3, c.size());
        assertTrue(c.classRelaxed("a.B"));
        assertTrue(c.methodRelaxed("a.C", "m", "()V"));
        assertTrue(c.fieldRelaxed("a.D", "f"));
        assertFalse(c.classRelaxed("a.C"));
    }

    @Test
    void emptyConfigRelaxesNothing() throws Exception {
        RelaxedConfig c = parse();
        assertEquals(0, c.size());
        assertFalse(c.classRelaxed("a.B"));
        assertEquals(0, RelaxedConfig.empty().size());
    }

    /** Each bad line sits on line 3, after a valid rule and a comment, so the line number is checked. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "clas com.x.Foo                 | unknown rule kind 'clas' (expected class, method, field, arrays or package)",
            "Class com.x.Foo                | unknown rule kind 'Class'",
            "method com.x.Foo               | method rule needs 'Class#method', got 'com.x.Foo'",
            "field com.x.Foo                | field rule needs 'Class#field', got 'com.x.Foo'",
            "method com.x.Foo#              | method rule needs 'Class#method', got 'com.x.Foo#'",
            "method #bar                    | expected '<class|method|field|arrays|package> <pattern>', got 'method'",
            "method com.x.Foo#bar(Q)V       | bad method descriptor '(Q)V'",
            "method com.x.Foo#bar(I         | bad method descriptor '(I'",
            "method com.x.Foo#bar(I)        | bad method descriptor '(I)'",
            "method com.x.Foo#bar(Ljava/lang/String)V | bad method descriptor '(Ljava/lang/String)V'",
            "method com.x.Foo#bar(V)V       | bad method descriptor '(V)V'",
            "class com/x/Foo                | bad class name 'com/x/Foo' (use dotted names, e.g. com.example.Foo)",
            "class com..Foo                 | bad class name 'com..Foo'",
            "class .Foo                     | bad class name '.Foo'",
            "package com.x.                 | bad package name 'com.x.'",
            "class com.x-y.Foo              | bad class name 'com.x-y.Foo'",
            "method com/x/Foo#bar           | bad class name 'com/x/Foo'",
            "method com.x.Foo#ba-r          | bad member name 'ba-r'",
            "field com.x.Foo#f.g            | bad member name 'f.g'",
            "class com.x.Foo extra          | expected '<class|method|field|arrays|package> <pattern>', got 'class com.x.Foo extra'",
            "method com.x.Foo#bar (I)V      | got 'method com.x.Foo#bar (I)V'",
            "class                          | expected '<class|method|field|arrays|package> <pattern>', got 'class'",
            "class com.x.Foo#bar            | class rule takes a class name, not a member: 'com.x.Foo#bar'",
            "package com.x#y                | package rule takes a package name, not a member",
            "field com.x.Foo#f(I)V          | field rule cannot have a descriptor: 'com.x.Foo#f(I)V'"})
    void everyErrorNamesFileLineAndReason(String bad, String reason) {
        RelaxedConfigException e = assertThrows(RelaxedConfigException.class,
                () -> RelaxedConfig.parse("bad.relaxed", List.of("class ok.Fine", "# a comment", bad, "class ok.After")));
        assertEquals("bad.relaxed", e.file());
        assertEquals(3, e.line());
        assertTrue(e.reason().contains(reason), () -> "reason '" + e.reason() + "' should contain '" + reason + "'");
        assertTrue(e.getMessage().startsWith("bad.relaxed:3: "), e.getMessage());
    }

    @Test
    void loadReportsThePathAndLineOfABadRule() {
        Path file = resource("missing-member.relaxed");
        RelaxedConfigException e = assertThrows(RelaxedConfigException.class, () -> RelaxedConfig.load(file));
        assertEquals(file.toString(), e.file());
        assertEquals(4, e.line());
        assertEquals(file + ":4: method rule needs 'Class#method', got 'com.example.Broken'", e.getMessage());
    }

    @Test
    void loadOfAMissingFileNamesIt(@TempDir Path dir) {
        Path missing = dir.resolve("nope.relaxed");
        RelaxedConfigException e = assertThrows(RelaxedConfigException.class, () -> RelaxedConfig.load(missing));
        assertEquals(missing.toString(), e.file());
        assertTrue(e.getMessage().startsWith(missing + ": cannot read"), e.getMessage());
    }

    @Test
    void loadOfAFileThatIsNotUtf8IsAnError(@TempDir Path dir) throws Exception {
        Path latin1 = dir.resolve("latin1.relaxed");
        Files.write(latin1, new byte[]{'c', 'l', 'a', 's', 's', ' ', 'a', '.', (byte) 0xE9});
        RelaxedConfigException e = assertThrows(RelaxedConfigException.class, () -> RelaxedConfig.load(latin1));
        assertTrue(e.getMessage().startsWith(latin1.toString()), e.getMessage());
    }

    @Test
    void singleStarMatchesWithinOneSegment() throws Exception {
        RelaxedConfig c = parse("class com.x.*", "class org.*.Util", "method a.B#get*", "field a.B#*Count");
        assertTrue(c.classRelaxed("com.x.Foo"));
        assertTrue(c.classRelaxed("com.x.Outer$Inner"));
        assertFalse(c.classRelaxed("com.x.y.Foo"));
        assertFalse(c.classRelaxed("com.xy.Foo"));
        assertTrue(c.classRelaxed("org.a.Util"));
        assertFalse(c.classRelaxed("org.a.b.Util"));
        assertTrue(c.methodRelaxed("a.B", "get", "()I"));
        assertTrue(c.methodRelaxed("a.B", "getX", "()I"));
        assertFalse(c.methodRelaxed("a.B", "setX", "(I)V"));
        assertTrue(c.fieldRelaxed("a.B", "hitCount"));
        assertFalse(c.fieldRelaxed("a.B", "hitCounter"));
    }

    @Test
    void doubleStarMatchesAcrossSegments() throws Exception {
        RelaxedConfig c = parse("class com.**", "class org.**.Util");
        assertTrue(c.classRelaxed("com.A"));
        assertTrue(c.classRelaxed("com.a.b.C"));
        assertFalse(c.classRelaxed("comx.A"));
        assertTrue(c.classRelaxed("org.a.b.Util"));
        assertTrue(c.classRelaxed("org.a.Util"));
        assertTrue(c.classRelaxed("org.Util"), "** stands for zero or more segments");
        assertFalse(c.classRelaxed("org.a.Utils"));
    }

    @Test
    void packageRules() throws Exception {
        RelaxedConfig exact = parse("package com.x");
        assertTrue(exact.classRelaxed("com.x.Foo"));
        assertFalse(exact.classRelaxed("com.x.y.Foo"), "a plain package rule does not reach sub-packages");
        assertFalse(exact.classRelaxed("com.Foo"));

        RelaxedConfig tree = parse("package com.x.**");
        assertTrue(tree.classRelaxed("com.x.Foo"), "the package itself");
        assertTrue(tree.classRelaxed("com.x.y.z.Foo"), "and every sub-package");
        assertFalse(tree.classRelaxed("com.xy.Foo"));
        assertFalse(tree.classRelaxed("com.Foo"));

        RelaxedConfig children = parse("package com.x.*");
        assertTrue(children.classRelaxed("com.x.y.Foo"));
        assertFalse(children.classRelaxed("com.x.Foo"));
        assertFalse(children.classRelaxed("com.x.y.z.Foo"));
    }

    @Test
    void dotsAndDollarsAreLiteral() throws Exception {
        RelaxedConfig c = parse("class com.x.Outer$Inner", "method a.B#<clinit>");
        assertTrue(c.classRelaxed("com.x.Outer$Inner"));
        assertFalse(c.classRelaxed("com.x.Outer"));
        assertFalse(c.classRelaxed("comxx.Outer$Inner"));
        assertFalse(c.classRelaxed("com.x.OuterInner"));
        assertTrue(c.methodRelaxed("a.B", "<clinit>", "()V"));
    }

    @Test
    void defaultPackage() throws Exception {
        RelaxedConfig c = parse("class Main", "package app");
        assertTrue(c.classRelaxed("Main"));
        assertFalse(c.classRelaxed("app"), "a package rule is about packages, not a class of that name");
        assertTrue(c.classRelaxed("app.Main"));
    }

    @Test
    void anArraysRuleNamesMethodsAndRelaxesNothingElse() throws Exception {
        RelaxedConfig c = parse("arrays a.B#recv", "arrays a.C#send([I)V");
        assertTrue(c.arraysRelaxed("a.B", "recv", "()V"));
        assertTrue(c.arraysRelaxed("a.C", "send", "([I)V"));
        assertFalse(c.arraysRelaxed("a.C", "send", "([J)V"));
        assertFalse(c.methodRelaxed("a.B", "recv", "()V"), "the method's field accesses stay SC");
        assertFalse(c.fieldRelaxed("a.B", "recv"));
        RelaxedConfigException e = assertThrows(RelaxedConfigException.class, () -> parse("arrays a.B"));
        assertEquals("test.relaxed:1: arrays rule needs 'Class#method', got 'a.B'", e.getMessage());
    }

    @Test
    void reachesAnyClassItsRulesName() throws Exception {
        List<String> jdk = List.of("java.util.HashMap", "java.util.concurrent.ConcurrentHashMap", "java.lang.String");
        assertFalse(parse("field app.Main#x", "arrays app.Box#get", "class app.*").reachesAny(jdk));
        assertTrue(parse("field app.Main#x", "field java.util.HashMap#size").reachesAny(jdk));
        assertTrue(parse("arrays java.lang.String#charAt").reachesAny(jdk));
        assertTrue(parse("method java.util.*#get").reachesAny(jdk));
        assertTrue(parse("package java.util.concurrent").reachesAny(jdk));
        assertFalse(parse("package java.util.function").reachesAny(jdk));
        assertTrue(parse("package java.**").reachesAny(jdk));
    }

    @Test
    void methodDescriptorMustMatchExactly() throws Exception {
        RelaxedConfig c = parse("method a.B#m(Ljava/lang/String;[I)V");
        assertTrue(c.methodRelaxed("a.B", "m", "(Ljava/lang/String;[I)V"));
        assertFalse(c.methodRelaxed("a.B", "m", "(Ljava/lang/String;[I)I"));
        assertFalse(c.methodRelaxed("a.B", "m", "()V"));
        assertFalse(c.fieldRelaxed("a.B", "m"), "a method rule says nothing of fields");
        assertFalse(c.classRelaxed("a.B"), "nor of the whole class");
    }
}
