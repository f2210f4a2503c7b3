package io.rdmarepl.cli.bench;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code rdmarepl bench}: measurements users can reproduce. */
@Command(name = "bench",
        mixinStandardHelpOptions = true,
        description = "Benchmarks: the channel alone, the capture stage, and unplanned failover (more to come: end-to-end lag).",
        subcommands = {ChannelBenchCommand.class, CaptureBenchCommand.class, FailoverBenchCommand.class})
public final class BenchCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
