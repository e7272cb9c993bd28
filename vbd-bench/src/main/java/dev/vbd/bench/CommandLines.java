package dev.vbd.bench;

import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.util.List;

/** Parses the bench's command lines with picocli; every error names the argument it is about. */
final class CommandLines {
    private CommandLines() {}

    /**
     * Sets the options of the annotated {@code command} from {@code args}; a later value wins.
     *
     * @throws IllegalArgumentException for a bad argument
     * @throws HelpRequested for {@code -h} or {@code --help}
     */
    static void parse(Object command, List<String> args) {
        CommandLine cl = commandLine(command);
        try {
            cl.parseArgs(args.toArray(String[]::new));
        } catch (CommandLine.UnmatchedArgumentException e) {
            throw new IllegalArgumentException("unknown option '" + e.getUnmatched().get(0) + "'");
        } catch (CommandLine.MissingParameterException e) {
            throw new IllegalArgumentException(name(e.getMissing().get(0)) + " needs a value");
        } catch (CommandLine.ParameterException e) {
            if (e.getCause() instanceof IllegalArgumentException bad) throw bad;
            ArgSpec arg = e.getArgSpec();
            if (arg != null && arg.arity().max() == 0) throw new IllegalArgumentException(name(arg) + " takes no value, got '" + e.getValue() + "'");
            throw new IllegalArgumentException(e.getMessage());
        }
        if (cl.isUsageHelpRequested()) throw new HelpRequested(cl.getUsageMessage());
    }

    /** The usage text of the annotated {@code command}, from its options. */
    static String usage(Object command) {
        return commandLine(command).getUsageMessage();
    }

    private static CommandLine commandLine(Object command) {
        return new CommandLine(command).setOverwrittenOptionsAllowed(true).setExpandAtFiles(false)
                .setUsageHelpWidth(100);
    }

    private static String name(ArgSpec arg) {
        return arg instanceof OptionSpec o ? o.longestName() : arg.paramLabel();
    }

    /** {@code -h} or {@code --help}: print the usage and stop. */
    static final class HelpRequested extends RuntimeException {
        final String usage;

        HelpRequested(String usage) {
            super(null, null, false, false);
            this.usage = usage;
        }
    }
}
