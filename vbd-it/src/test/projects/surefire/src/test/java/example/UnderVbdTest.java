package example;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Modifier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Passes only in a fork that runs under vbd: the prepared JDK, which rewrote this class as it loaded. */
class UnderVbdTest {
    /** Plain as declared: vbd makes it volatile in the JVM, and remembers that it did. */
    int plain;

    @Test
    void thisForkRunsUnderVbd() throws Exception {
        // only a prepared JDK has it: what vbd changed in a class, which reflection then hides
        Class<?> changes = Class.forName("java.util.concurrent.atomic.VbdFieldModifiers");
        int declared = (int) changes.getMethod("field", int.class, Class.class, String.class)
                .invoke(null, Modifier.VOLATILE, UnderVbdTest.class, "plain");
        assertEquals(0, declared & Modifier.VOLATILE, "vbd made 'plain' volatile: this class was rewritten");
        System.out.println("fork java.home=" + System.getProperty("java.home"));
    }
}
