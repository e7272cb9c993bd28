package example;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Passes only in a fork that runs under vbd: the prepared JDK and vbd's agent. */
class UnderVbdTest {
    @Test
    void thisForkRunsUnderVbd() throws Exception {
        Class.forName("java.util.concurrent.atomic.VbdRuntime"); // only a prepared JDK has it
        assertTrue(ManagementFactory.getRuntimeMXBean().getInputArguments().stream().anyMatch(a -> a.startsWith("-javaagent:")),
                "vbd's agent is running");
        System.out.println("fork java.home=" + System.getProperty("java.home"));
    }
}
