package dev.vbd.cli;

import dev.vbd.host.Command;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code vbd demo}: the bundled examples under stock Java, then under vbd, side by side. */
final class Demo {
    private Demo() {}

    static int run(Options o, String java) throws UsageException, IOException {
        Path demoJar = Main.vbdJar().getParent().getParent().getParent().resolve("vbd-demo/target/vbd-demo.jar");
        if (!Files.isRegularFile(demoJar)) throw new UsageException("demo jar missing: " + demoJar + " (build with bin/vbd)");
        Jdk jdk = Jdk.resolve(java);
        System.out.println("vbd demo on " + jdk.vendor() + " JDK " + jdk.version() + " (" + jdk.home() + ")");
        System.out.println("The program: dev.vbd.demo.Demo, plain fields only, no volatile anywhere.");
        System.out.println();
        List<String> stockCmd = List.of(java, "-cp", demoJar.toString(), "dev.vbd.demo.Demo");
        List<String> vbdCmd = Main.launchCommand(o, java, stockCmd.subList(1, stockCmd.size()), null);
        System.out.println("== stock Java (the Java memory model)");
        List<String> stock = runAndPrint(stockCmd);
        System.out.println();
        System.out.println("== under vbd (sequential consistency by default)");
        List<String> vbd = runAndPrint(vbdCmd);
        System.out.println();
        boolean vbdClean = vbd.size() >= 2 && !vbd.get(0).contains("STUCK") && vbd.get(1).startsWith("dekker: 0 of");
        System.out.println(vbdClean
                ? "Under vbd both examples behave as their source reads: no hoisted loop, no forbidden outcome."
                : "UNEXPECTED: vbd showed a non-SC outcome; please report it.");
        boolean stockBroke = stock.stream().anyMatch(l -> l.contains("STUCK") || (l.startsWith("dekker:") && !l.startsWith("dekker: 0 of")));
        if (!stockBroke) {
            System.out.println("(Stock Java happened to show no weak behaviour this time; it is allowed to, not obliged to.)");
        }
        return vbdClean ? 0 : 1;
    }

    private static List<String> runAndPrint(List<String> cmd) throws IOException {
        String out = "";
        try {
            out = Command.of(cmd).errorToTerminal().run().output();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<String> lines = new ArrayList<>();
        for (String l : out.split("\n")) {
            if (l.isBlank()) continue;
            lines.add(l);
            System.out.println("  " + l);
        }
        return lines;
    }
}
