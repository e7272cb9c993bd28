package dev.vbd.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The command lines of {@code vbd}'s commands, each with the options {@link Verb} gives it, from
 * the annotated options of {@link Options}: what parses a command's arguments, and its usage text.
 */
final class Usage {
    private static final int WIDTH = 100;

    private Usage() {}

    /**
     * The parser of {@code vbd VERB}'s options, taking those in {@code allowed} into {@code into}: the
     * arguments before {@code --}, so any word among them is a bad one.
     */
    static CommandLine parser(String verb, Options into, List<String> allowed) {
        CommandSpec spec = spec(verb, into, allowed, null, !verb.equals("run"));
        // a later --fields or --cache wins, as scripts that add to a command line expect; '@file' is a java argument
        return new CommandLine(spec).setOverwrittenOptionsAllowed(true).setExpandAtFiles(false);
    }

    /** The usage of {@code vbd VERB}. */
    static String of(Verb verb) {
        return new CommandLine(spec(verb.words, new Options(), verb.options, verb.javaCommand, true)).getUsageMessage();
    }

    /** The usage of {@code vbd}: its commands, then the options most of them take. */
    static String ofAll() {
        CommandSpec root = CommandSpec.create().name("vbd");
        addOptions(root, new Options(), Options.COMMON, false);
        root.addOption(OptionSpec.builder("--version").description("this vbd's version and build").build());
        root.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).description("this text; 'vbd COMMAND --help': that command's").build());
        UsageMessageSpec usage = root.usageMessage().width(WIDTH)
                .customSynopsis("usage: vbd <command> [options] -- <java command line>")
                .commandListHeading("%ncommands:%n").optionListHeading("%noptions (run, and the commands that take them):%n")
                .sectionKeys(List.of(UsageMessageSpec.SECTION_KEY_SYNOPSIS, UsageMessageSpec.SECTION_KEY_COMMAND_LIST_HEADING,
                        UsageMessageSpec.SECTION_KEY_COMMAND_LIST, UsageMessageSpec.SECTION_KEY_OPTION_LIST_HEADING,
                        UsageMessageSpec.SECTION_KEY_OPTION_LIST));
        usage.sortOptions(false);
        for (Verb v : Verb.values()) {
            root.addSubcommand(v.words, new CommandLine(spec(v.words, new Options(), v.options, v.javaCommand, true)));
        }
        return new CommandLine(root).getUsageMessage();
    }

    private static CommandSpec spec(String verb, Options into, List<String> allowed, String javaCommand, boolean help) {
        CommandSpec spec = CommandSpec.create().name("vbd " + verb);
        addOptions(spec, into, allowed, help);
        Verb known = Verb.of(verb);
        if (known != null) spec.usageMessage().description(known.description);
        if (javaCommand != null) {
            spec.addPositional(PositionalParamSpec.builder().paramLabel("-- " + javaCommand).arity("0..*")
                    .type(List.class).auxiliaryTypes(String.class)
                    .description("the java command line, after '--'").build());
        }
        spec.usageMessage().width(WIDTH).sortOptions(false).abbreviateSynopsis(true).synopsisHeading("usage: ");
        return spec;
    }

    /** The options named in {@code allowed}, in that order, bound to {@code into}; then {@code --help}. */
    private static void addOptions(CommandSpec spec, Options into, List<String> allowed, boolean help) {
        Map<String, OptionSpec> all = new HashMap<>();
        OptionSpec helpOption = null;
        for (OptionSpec o : CommandSpec.forAnnotatedObject(into).options()) {
            all.put(o.longestName(), o);
            if (o.usageHelp()) helpOption = o;
        }
        for (String name : allowed) spec.addOption(OptionSpec.builder(all.get(name)).build());
        if (help) spec.addOption(OptionSpec.builder(helpOption).build());
    }
}
