package io.rdmarepl.harness;

import io.rdmarepl.cli.FailureHandler;
import io.rdmarepl.cli.VersionProvider;
import io.rdmarepl.harness.bench.BenchCommand;
import io.rdmarepl.harness.demo.DemoCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The harness jar's command: {@code demo} and {@code bench}, which start their own PostgreSQL servers (test-support,
 * embedded PostgreSQL) and so never ship inside the production jar. From a clone, {@code ./rdmarepl demo} and
 * {@code ./rdmarepl bench ...} run it; every other subcommand runs from the production jar. Exit codes as
 * {@code rdmarepl}'s.
 */
@Command(name = "rdmarepl",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {"The rdmarepl harness: the demo and the benchmarks, on PostgreSQL servers it starts itself.",
            "Not part of the production jar: the roles and the runbook commands run from rdmarepl.jar."},
        subcommands = {DemoCommand.class, BenchCommand.class, CommandLine.HelpCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:the operation failed", "2:bad usage or configuration"})
public final class HarnessCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line, shared by {@link #main} and tests. */
    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new HarnessCommand());
        commandLine.setExecutionExceptionHandler(new FailureHandler());
        return commandLine;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
