package dev.vbd.bench;

import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

import java.nio.file.Path;
import java.util.Set;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathRoots;

/**
 * The {@code junit} program of {@code bin/vbd bench --startup}: runs every JUnit 5 test in the
 * class path's first entry through the JUnit Platform launcher, as a build tool's test fork does,
 * and fails unless exactly the expected number passed. Usage: {@code JUnitRun EXPECTED}.
 */
public final class JUnitRun {
    private JUnitRun() {}

    public static void main(String[] args) {
        String first = System.getProperty("java.class.path").split(java.io.File.pathSeparator)[0];
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClasspathRoots(Set.of(Path.of(first)))).build();
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        launcher.execute(request, listener);
        TestExecutionSummary s = listener.getSummary();
        System.out.println("junit: " + s.getTestsSucceededCount() + " passed, " + s.getTotalFailureCount() + " failed");
        if (s.getTotalFailureCount() > 0 || s.getTestsSucceededCount() != Long.parseLong(args[0])) System.exit(1);
    }
}
