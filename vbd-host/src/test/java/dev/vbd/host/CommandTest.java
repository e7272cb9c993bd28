package dev.vbd.host;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommandTest {
    @TempDir
    Path tmp;

    @Test
    void capturesBothStreamsAndTheExitStatus() throws Exception {
        Command.Result r = Command.of("sh", "-c", "echo out; echo err >&2; exit 3").run();
        assertEquals(3, r.status());
        assertFalse(r.timedOut());
        assertFalse(r.succeeded());
        assertTrue(r.output().contains("out\n") && r.output().contains("err\n"), r.output());
    }

    @Test
    void runsInItsDirectoryWithItsVariablesAndAnEmptyStdin() throws Exception {
        Command.Result r = Command.of("sh", "-c", "pwd; echo \"$VBD_HOST_TEST\"; cat; echo end")
                .in(tmp).environment(Map.of("VBD_HOST_TEST", "set")).run();
        assertEquals(tmp.toRealPath() + "\nset\nend\n", r.output());
    }

    @Test
    void writesToFilesOrALineListener() throws Exception {
        Path out = tmp.resolve("out");
        Path err = tmp.resolve("err");
        assertTrue(Command.of("sh", "-c", "echo a; echo b >&2").outputTo(out, err).run().succeeded());
        assertEquals("a\n", Files.readString(out));
        assertEquals("b\n", Files.readString(err));

        List<String> lines = new ArrayList<>();
        Command.Result r = Command.of("sh", "-c", "echo one; echo two").eachLine(lines::add).run();
        assertEquals(List.of("one", "two"), lines);
        assertEquals("", r.output());
    }

    @Test
    void aCommandPastItsLimitIsStoppedWithEveryProcessItStarted() throws Exception {
        Path pid = tmp.resolve("child.pid");
        Command.Result r = Command.of("sh", "-c", "sleep 600 & echo $! > " + pid + "; wait")
                .timeout(Duration.ofSeconds(2)).run();
        assertTrue(r.timedOut());
        assertEquals(-1, r.status());
        long child = Long.parseLong(Files.readString(pid).trim());
        assertFalse(ProcessHandle.of(child).map(ProcessHandle::isAlive).orElse(false), "the child " + child + " was stopped too");
    }
}
