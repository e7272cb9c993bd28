package dev.vbd.apps;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.python.core.PyObject;
import org.python.core.PySystemState;
import org.python.util.PythonInterpreter;

/**
 * Jython: runs the bundled script {@code workload.py} (string processing, comprehensions, recursion,
 * a small expression interpreter, Python threads on real Java threads) and prints its result.
 *
 * <p>{@code --size} is the number of generated words. The script checks itself (word counts after
 * merging the threads' parts, run-length round trips, n-queens counts against known values, its
 * interpreter against Python's eval) and raises on a wrong answer, which fails the run.
 */
public final class JythonScript extends Workload {

    private String source;

    public static void main(String[] args) {
        new JythonScript().main("jython", args, 40_000);
    }

    @Override
    protected void setUp(Options options) throws Exception {
        try (InputStream in = JythonScript.class.getResourceAsStream("workload.py")) {
            check(in != null, "resource dev/vbd/apps/workload.py is on the classpath");
            source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Properties props = new Properties();
        // no package scan cache under the user's home, no site-packages lookups: the run is self-contained
        props.setProperty("python.cachedir.skip", "true");
        props.setProperty("python.import.site", "false");
        props.setProperty("python.console.encoding", "UTF-8");
        PythonInterpreter.initialize(System.getProperties(), props, new String[0]);
    }

    @Override
    protected String iteration(Options options, int index) {
        // a fresh interpreter each iteration: the script is compiled and run from scratch
        try (PythonInterpreter py = new PythonInterpreter(null, new PySystemState())) {
            py.set("SIZE", options.size());
            py.set("THREADS", options.threads());
            py.exec(py.compile(source, "workload.py"));
            PyObject result = py.get("RESULT");
            check(result != null, "workload.py set RESULT");
            return result.toString();
        }
    }
}
