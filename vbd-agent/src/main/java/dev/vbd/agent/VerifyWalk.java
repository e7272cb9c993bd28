package dev.vbd.agent;

import dev.vbd.core.policy.Policy;

import java.lang.instrument.Instrumentation;

/** At exit, in verify mode: walk every loaded class and write the report. */
final class VerifyWalk {
    private VerifyWalk() {}

    static void run(Instrumentation inst, Policy policy, AgentOptions options, RewriteStats stats) {
        // filled in by the verifier
    }
}
