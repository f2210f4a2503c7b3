package io.rdmarepl.harness.bench;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code rdmarepl bench}: measurements users can reproduce. */
@Command(name = "bench",
        mixinStandardHelpOptions = true,
        description = "Benchmarks: the channel alone, the capture stage, unplanned failover, partitions and faults between hosts, end-to-end lag and the initial copy against PostgreSQL's own logical replication.",
        subcommands = {ChannelBenchCommand.class, CaptureBenchCommand.class, FailoverBenchCommand.class, PartitionBenchCommand.class, io.rdmarepl.harness.bench.lag.LagBenchCommand.class,
                io.rdmarepl.harness.bench.copy.CopyBenchCommand.class})
public final class BenchCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
