package io.rdmarepl.cli;

import io.rdmarepl.cli.apply.ApplyCommand;
import io.rdmarepl.cli.ship.ShipCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The production {@code rdmarepl} command: the roles and the runbook steps. The demo and the benchmarks live in the
 * harness module's jar ({@code io.rdmarepl.harness.HarnessCommand}), never in this one. Exit codes: 0 success, 1 the
 * operation failed, 2 bad usage or configuration.
 */
@Command(name = "rdmarepl",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Replication accelerator for PostgreSQL: ships the change stream over RDMA into a standby's ring.",
        subcommands = {ShipCommand.class, io.rdmarepl.cli.lease.LeaseGuardCommand.class, ApplyCommand.class, io.rdmarepl.cli.coordinate.CoordinateCommand.class,
            io.rdmarepl.cli.runbook.StatusCommand.class, io.rdmarepl.cli.runbook.LagCommand.class,
            io.rdmarepl.cli.runbook.SwitchoverCommand.class, io.rdmarepl.cli.runbook.FailoverCommand.class,
            io.rdmarepl.cli.runbook.PromoteCommand.class, io.rdmarepl.cli.runbook.RejoinCommand.class,
            io.rdmarepl.cli.runbook.FenceCommand.class, io.rdmarepl.cli.runbook.HistoryCommand.class,
            CommandLine.HelpCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:the operation failed", "2:bad usage or configuration"},
        footer = {"", "demo and bench are in the harness jar, not in this one.",
            "From a clone: ./rdmarepl demo, ./rdmarepl bench ..."})
public final class RdmareplCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line, shared by {@link #main} and tests. */
    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new RdmareplCommand());
        commandLine.setExecutionExceptionHandler(new FailureHandler());
        return commandLine;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
