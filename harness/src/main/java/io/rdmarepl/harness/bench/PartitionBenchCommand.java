package io.rdmarepl.harness.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.harness.rig.InProcessCoordinator;
import io.rdmarepl.testsupport.cluster.HostCluster;
import io.rdmarepl.testsupport.net.NetworkNamespaces;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rdmarepl bench partition}: issue 21's partitions and faults between real hosts, trial after trial. Each trial
 * runs on a fresh {@link HostCluster} (every member on a network-namespace host of its own, every role a process of
 * its own started from {@code config/}'s examples, restarted as its systemd unit would be):
 * <pre>
 *   host a: PostgreSQL a + rdmarepl ship ----softrdma---- host b: PostgreSQL b + rdmarepl apply
 *        \                                                   /
 *         host coordinator: rdmarepl coordinate (scenario 3: two, on a three-server ZooKeeper ensemble)
 *   this JVM (the client): writes through FailoverDataSource, keeps the history of acknowledged writes
 * </pre>
 * The trials are the end-to-end tests' ({@code io.rdmarepl.trials}), judged as those tests judge them
 * ({@link PartitionBenchReport#failure}).
 */
@Command(name = "partition",
        mixinStandardHelpOptions = true,
        description = {"Partitions and faults between network-namespace hosts (issue 21's scenarios), each trial on a fresh cluster:",
                "acknowledged writes lost, overlapping primaries, the old primary's self-fence, healed.",
                "Exit code 0 when every trial passed, 1 when one did not, 2 when the options are wrong or network namespaces",
                "are unavailable (needs Linux, root, iproute2)."})
public final class PartitionBenchCommand implements Callable<Integer> {

    @Option(names = "--scenarios", defaultValue = "1,2,3,4,5,6,7", split = ",", paramLabel = "N",
            description = "Issue 21's scenarios to run (1-7). Default: ${DEFAULT-VALUE}.")
    List<Integer> scenarios;

    @Option(names = "--trials", defaultValue = "3", description = "Trials per scenario and mode, each on a fresh cluster. Default: ${DEFAULT-VALUE}.")
    int trials;

    @Option(names = "--mode", defaultValue = "both", paramLabel = "async|sync|both",
            description = "The shippers' replication.mode: async, sync (strict), or both, one after the other. Default: ${DEFAULT-VALUE}.")
    String mode;

    @Option(names = "--json", paramLabel = "FILE|-", description = "Write the figures as one JSON object to FILE, or to stdout (-) instead of the table.")
    String json;

    @Option(names = "--state-dir", paramLabel = "DIR",
            description = "Where each trial's directory goes (role configurations and logs, leases). Default: the system's temporary directory.")
    Path stateDir;

    @Option(names = "--keep-logs", description = "Keep every trial's directory, not only a failed trial's.")
    boolean keepLogs;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        List<PartitionScenario> chosen = validate();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter progress = spec.commandLine().getErr();
        Optional<String> unavailable = NetworkNamespaces.unavailableReason();
        if (unavailable.isPresent()) {
            progress.println("rdmarepl bench partition: cannot run here: "
                    + unavailable.get().replace("network-namespace tests skipped", "needs network namespaces"));
            progress.flush();
            return 2;
        }
        List<PartitionBenchReport.Scenario> done = new ArrayList<>();
        for (PartitionScenario scenario : chosen) {
            for (String m : modes()) {
                done.add(run(scenario, m, progress));
            }
        }
        PartitionBenchReport report = new PartitionBenchReport(trials, done);
        String jsonText = new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(report.toMap());
        if ("-".equals(json)) {
            out.println(jsonText);
        } else {
            out.print(report.table());
            if (json != null) {
                Files.writeString(Path.of(json), jsonText + System.lineSeparator());
                out.println("json: " + Path.of(json).toAbsolutePath());
            }
        }
        out.flush();
        return report.pass() ? 0 : 1;
    }

    private PartitionBenchReport.Scenario run(PartitionScenario scenario, String m, PrintWriter progress) {
        List<PartitionBenchReport.Trial> done = new ArrayList<>();
        for (int i = 1; i <= trials; i++) {
            PartitionBenchReport.Trial trial = trial(scenario, "sync".equals(m), i);
            done.add(trial);
            PartitionBenchReport.Scenario soFar = new PartitionBenchReport.Scenario(scenario, m, List.copyOf(done));
            progress.println(PartitionBenchReport.progress(soFar, trial, trials));
            progress.flush();
        }
        return new PartitionBenchReport.Scenario(scenario, m, done);
    }

    /**
     * One trial on a fresh cluster; its directory (configurations, role logs) removed when it passed, kept and named
     * otherwise.
     */
    private PartitionBenchReport.Trial trial(PartitionScenario scenario, boolean sync, int index) {
        long startNs = System.nanoTime();
        Path directory = newDirectory(scenario, sync, index);
        PartitionBenchReport.Trial trial;
        try (HostCluster cluster = scenario.start(directory, sync, index)) {
            PartitionScenario.Outcome outcome = scenario.run(cluster, index);
            trial = new PartitionBenchReport.Trial(index, outcome.result(), outcome.details(), null, secondsSince(startNs));
        } catch (Exception | AssertionError e) { // an AssertionError: something awaited did not come in time
            trial = new PartitionBenchReport.Trial(index, null, java.util.Map.of(),
                    e.getClass().getSimpleName() + ": " + e.getMessage() + " (role logs in " + directory + ")", secondsSince(startNs));
        }
        PartitionBenchReport.Scenario one = new PartitionBenchReport.Scenario(scenario, sync ? "sync" : "async", List.of(trial));
        if (PartitionBenchReport.failure(one, trial) == null && !keepLogs) {
            InProcessCoordinator.deleteQuietly(directory);
        } else {
            spec.commandLine().getErr().println("scenario " + scenario.number() + " trial " + index + ": configurations and role logs kept in "
                    + directory);
        }
        return trial;
    }

    private Path newDirectory(PartitionScenario scenario, boolean sync, int index) {
        String prefix = "rdmarepl-bench-partition-" + scenario.number() + "-" + (sync ? "sync" : "async") + "-" + index + "-";
        try {
            return stateDir == null ? Files.createTempDirectory(prefix) : Files.createTempDirectory(stateDir, prefix);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot create the trial's directory: " + e.getMessage(), e);
        }
    }

    private static long secondsSince(long startNs) {
        return TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNs);
    }

    private List<String> modes() {
        return "both".equals(mode) ? List.of("async", "sync") : List.of(mode);
    }

    private List<PartitionScenario> validate() {
        List<String> problems = new ArrayList<>();
        List<PartitionScenario> chosen = new ArrayList<>();
        for (int number : scenarios) {
            Optional<PartitionScenario> scenario = PartitionScenario.numbered(number);
            if (scenario.isEmpty()) {
                problems.add("--scenarios " + number + ": issue 21 has scenarios 1..7");
            } else if (!chosen.contains(scenario.get())) {
                chosen.add(scenario.get());
            }
        }
        if (trials < 1 || trials > 100) {
            problems.add("--trials " + trials + ": must be 1..100");
        }
        if (!List.of("async", "sync", "both").contains(mode)) {
            problems.add("--mode " + mode + ": must be async, sync or both");
        }
        if (json != null && !"-".equals(json) && Path.of(json).toAbsolutePath().getParent() != null
                && !Files.isDirectory(Path.of(json).toAbsolutePath().getParent())) {
            problems.add("--json " + json + ": no such directory " + Path.of(json).toAbsolutePath().getParent());
        }
        if (stateDir != null && !Files.isDirectory(stateDir)) {
            problems.add("--state-dir " + stateDir + ": not a directory");
        }
        if (!problems.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "invalid options:\n  " + String.join("\n  ", problems));
        }
        return chosen;
    }
}
