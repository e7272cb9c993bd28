package dev.vbd.it;

import com.sun.jdi.Bootstrap;
import com.sun.jdi.ReferenceType;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.connect.ListeningConnector;
import com.sun.jdi.event.ClassPrepareEvent;
import com.sun.jdi.event.Event;
import com.sun.jdi.event.EventSet;
import com.sun.jdi.event.VMDisconnectEvent;
import com.sun.jdi.request.ClassPrepareRequest;
import com.sun.jdi.request.EventRequest;
import dev.vbd.it.support.Jvm;
import dev.vbd.it.support.Jvms;
import dev.vbd.it.support.Launch;
import dev.vbd.it.support.OnEachJdk;
import dev.vbd.it.support.Outcome;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A visible change guarantee.md names: a debugger (JDI over JDWP, which asks JVMTI) sees the field
 * flags the JVM runs, not the declared ones. Under vbd a field of a class vbd rewrote is
 * volatile; with vbd's agent, a field of a class loaded before the agent is not (the reason method
 * handles and reflection on it stay plain), while the image's own rewriting reaches that class too;
 * under stock Java neither is. Program {@code sysloader}.
 */
class DebuggerTest {
    private static final long WAIT_MILLIS = TimeUnit.MINUTES.toMillis(3);

    @OnEachJdk
    void aDebuggerSeesTheFieldFlagsTheJvmRuns(int jdk) throws Exception {
        Jvm jvm = Jvms.require(jdk);
        assertEquals(Map.of("Main.mainField", true, "Helper.x", true), volatileFlags(jvm, How.IMAGE));
        assertEquals(Map.of("Main.mainField", true, "Helper.x", false), volatileFlags(jvm, How.AGENT));
        assertEquals(Map.of("Main.mainField", false, "Helper.x", false), volatileFlags(jvm, How.STOCK));
    }

    /** {@code vbd run}, {@code vbd run --agent}, stock Java. */
    private enum How { IMAGE, AGENT, STOCK }

    /** Starts the program with a JDWP agent that connects here, and reads the flags when {@code Main} is prepared. */
    private static Map<String, Boolean> volatileFlags(Jvm jvm, How how) throws Exception {
        ListeningConnector listen = Bootstrap.virtualMachineManager().listeningConnectors().stream()
                .filter(c -> c.name().equals("com.sun.jdi.SocketListen")).findFirst().orElseThrow();
        Map<String, Connector.Argument> args = listen.defaultArguments();
        args.get("localAddress").setValue("127.0.0.1");
        args.get("port").setValue("0");
        args.get("timeout").setValue(String.valueOf(WAIT_MILLIS));
        String address = listen.startListening(args);
        CompletableFuture<Outcome> run;
        VirtualMachine vm;
        try {
            Launch launch = EarlyClassesTest.program().on(jvm, "reflect").jvmOptions("-Djava.system.class.loader=SbLoader",
                    "-agentlib:jdwp=transport=dt_socket,server=n,suspend=y,address=" + address);
            run = CompletableFuture.supplyAsync(how == How.STOCK ? launch::stock : how == How.AGENT ? launch.agent()::vbd : launch::vbd);
            vm = listen.accept(args);
        } finally {
            listen.stopListening(args);
        }
        Map<String, Boolean> flags = new LinkedHashMap<>();
        try {
            ClassPrepareRequest prepared = vm.eventRequestManager().createClassPrepareRequest();
            prepared.addClassFilter("Main");
            prepared.setSuspendPolicy(EventRequest.SUSPEND_ALL);
            prepared.enable();
            vm.resume();
            while (flags.isEmpty()) {
                EventSet events = vm.eventQueue().remove(WAIT_MILLIS);
                if (events == null) throw new AssertionError("Main was never prepared");
                for (Event e : events) {
                    if (e instanceof VMDisconnectEvent) throw new AssertionError("the program ended first: " + run.get().describe());
                    if (!(e instanceof ClassPrepareEvent p)) continue;
                    flags.put("Main.mainField", p.referenceType().fieldByName("mainField").isVolatile());
                    List<ReferenceType> helper = vm.classesByName("Helper");
                    flags.put("Helper.x", helper.get(0).fieldByName("x").isVolatile());
                }
                if (flags.isEmpty()) events.resume();
            }
        } finally {
            try {
                vm.dispose();
            } catch (com.sun.jdi.VMDisconnectedException gone) {
                // the program ended first: what the loop threw says how, and must not be hidden
            }
        }
        run.get(WAIT_MILLIS, TimeUnit.MILLISECONDS).requireExit(0);
        return flags;
    }
}
