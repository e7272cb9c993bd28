package dev.vbd.litmus.run;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class VbdArgsTest {
    @Test
    void splitsBareAndSingleQuotedWords() {
        assertEquals(List.of("-Xshare:off", "--patch-module=java.base=/c/p/java.base.jar", "-javaagent:/a b/vbd.jar=x&y"),
                VbdArgs.unquote("-Xshare:off --patch-module=java.base=/c/p/java.base.jar '-javaagent:/a b/vbd.jar=x&y'"));
    }

    @Test
    void keepsAQuoteWrittenTheShellWay() {
        assertEquals(List.of("it's", "x"), VbdArgs.unquote("'it'\\''s'  x"));
    }

    @Test
    void anEmptyQuotedWordIsAWord() {
        assertEquals(List.of("a", "", "b"), VbdArgs.unquote("a '' b"));
    }

    @Test
    void refusesAnUnbalancedQuote() {
        assertThrows(IllegalArgumentException.class, () -> VbdArgs.unquote("'-javaagent:x"));
    }
}
