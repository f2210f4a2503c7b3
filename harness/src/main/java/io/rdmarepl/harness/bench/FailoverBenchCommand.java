package io.rdmarepl.harness.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rdmarepl.channel.shm.ShmPaths;
import io.rdmarepl.harness.rig.FailoverOutcome;
import io.rdmarepl.harness.rig.FailoverTrial;
import io.rdmarepl.harness.rig.InProcessCoordinator;
import io.rdmarepl.harness.rig.RemoteCoordinator;
import io.rdmarepl.harness.rig.ReplicationRoles;
import io.rdmarepl.harness.rig.SyncWitness;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresPair;
import io.rdmarepl.testsupport.PostgresServer;
import io.rdmarepl.testsupport.cluster.HostCluster;
import io.rdmarepl.testsupport.history.ClientWriter;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rdmarepl bench failover}: unplanned failover, trial after trial, each on a fresh pair of embedded
 * PostgreSQL servers (fsync on):
 * <pre>
 *   client (FailoverDataSource, --rate tx/s) ---> primary --shipper--shm ring--applier--> replica
 *        ^ /topology                                 |  \--- physical streaming standby (reference)
 *   coordinator (probe + applier /status)     SIGKILL of the postmaster
 * </pre>
 * The coordinator fails over to the replica; the client's first write acknowledged there gives the RTO. Then
 * PostgreSQL's own physical standby of the same dead primary is promoted with {@code pg_ctl promote} and timed to
 * its first write, for comparison. With {@code --mode sync} the shipper runs in strict sync mode (the client starts
 * only once sync is on), and a trial passes only when every transaction the old primary acknowledged is on the
 * promoted replica.
 * <p>
 * {@code --layout shared} (the default) runs the roles as threads of this process, all of them and both servers on
 * every CPU. {@code --layout hosts} runs each trial on a {@link HostCluster}: the roles as separate processes on
 * network-namespace hosts, the primary's PostgreSQL and shipper on a CPU of their own, everything else on another
 * ({@link HostsLayout}); PostgreSQL's reference is not run there.
 */
@Command(name = "failover",
        mixinStandardHelpOptions = true,
        description = {"Unplanned failover: SIGKILL the primary under a client's writes, trial after trial; detection, promotion, RTO,",
                "acknowledged transactions lost, writable primaries after; beside PostgreSQL's physical standby promoted with pg_ctl promote.",
                "Exit code 0 when every trial ends with the replica promoted and exactly one writable primary (sync mode: and no",
                "acknowledged transaction lost)."})
public final class FailoverBenchCommand implements Callable<Integer> {
    private static final String ROLES_TOKEN = UUID.randomUUID().toString();
    /** --layout hosts, --mode sync: how long sync mode may take to come on once the cluster is healthy. */
    private static final Duration SYNC_ON_TIMEOUT = Duration.ofSeconds(60);

    @Option(names = "--trials", defaultValue = "10", description = "Trials, each on a fresh pair of servers. Default: ${DEFAULT-VALUE}.")
    int trials;

    @Option(names = "--mode", defaultValue = "async", paramLabel = "async|sync",
            description = "The shipper's replication.mode: async, or sync (strict, remote_flush: a commit returns once the replica holds it). "
                    + "Default: ${DEFAULT-VALUE}.")
    String mode;

    @Option(names = "--rate", defaultValue = "200",
            description = "Client transactions per second in all; 0 = each writer as fast as it can. Default: ${DEFAULT-VALUE}.")
    int rate;

    @Option(names = "--writers", defaultValue = "1",
            description = "Client writer threads (each its own connection), sharing --rate. Default: ${DEFAULT-VALUE}.")
    int writers;

    @Option(names = "--warmup-ms", defaultValue = "1500",
            description = "How long the client writes to the healthy primary before the kill. Default: ${DEFAULT-VALUE}.")
    int warmupMs;

    @Option(names = "--write-on-ms", defaultValue = "500",
            description = "How long the client writes on once the coordinator reports PROMOTED. Default: ${DEFAULT-VALUE}.")
    int writeOnMs;

    @Option(names = "--apply-synchronous-commit", paramLabel = "on|off",
            description = "synchronous_commit of the applier's sessions (apply.synchronous.commit). Default: on with --mode sync (a sync "
                    + "commit then waits for the replica's commit, not for its WAL writer: with off about 200 ms, wal_writer_delay), "
                    + "the applier's default (off) with --mode async.")
    String applySynchronousCommit;

    @Option(names = "--state-dir", paramLabel = "DIR",
            description = "Where the coordinator's state file goes (fsynced at the epoch and at every settled phase). Default: the system's temporary directory.")
    java.nio.file.Path stateDir;

    @Option(names = "--layout", defaultValue = "shared", paramLabel = "shared|hosts",
            description = {"shared: the roles as threads of this process, the servers and everything on every CPU. hosts: each role a "
                    + "process of its own on a network-namespace host, the primary's PostgreSQL and shipper on one CPU, the standby's "
                    + "PostgreSQL, applier, coordinator and the client on another (needs root, iproute2, taskset and 2 CPUs; no "
                    + "reference). Default: ${DEFAULT-VALUE}."})
    String layout;

    @Option(names = "--role-java-opts", paramLabel = "OPTIONS", defaultValue = "",
            description = "--layout hosts: JVM options of every role process, as RDMAREPL_JAVA_OPTS gives them to the packaged units (e.g. "
                    + "\"-XX:TieredStopAtLevel=1\"). Default: none, the JVM's own defaults, as the units run them.")
    String roleJavaOpts;

    @Option(names = "--rehearse", description = {"--layout hosts: before the client starts, a planned switchover to b and back to a, "
            + "and the roles left to settle: the failover paths have run once before the kill. Not a production failover (that one is "
            + "cold): the order of what warming those paths at start could give."})
    boolean rehearse;

    @Option(names = "--keep-logs", description = "--layout hosts: keep each trial's directory (configurations, role logs), not only a failed "
            + "trial's.")
    boolean keepLogs;

    @Option(names = "--no-reference", description = "Skip PostgreSQL's physical standby (pg_ctl promote).")
    boolean noReference;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Why PostgreSQL's reference is not run (null: it is); known once the first pair has started. */
    private String referenceUnavailable;

    /**
     * The next trial's pair of servers, starting in the background while the previous trial's servers shut down (never
     * while anything is measured); null when none is starting.
     */
    private CompletableFuture<PostgresPair> nextPair;

    /** {@code --layout hosts}: the CPUs of the hosts; null with {@code --layout shared}. */
    private HostsLayout hosts;

    @Override
    public Integer call() throws Exception {
        validate();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter progress = spec.commandLine().getErr();
        if (!"hosts".equals(layout)) {
            return run(out, progress);
        }
        StringBuilder why = new StringBuilder();
        Optional<HostsLayout> prepared = HostsLayout.prepare(why);
        if (prepared.isEmpty()) {
            progress.println("rdmarepl bench failover --layout hosts: cannot run here: " + why);
            progress.flush();
            return 2;
        }
        try (HostsLayout layout = prepared.get()) {
            hosts = layout;
            progress.println("layout hosts: " + layout.describe());
            progress.flush();
            return run(out, progress);
        } finally {
            hosts = null;
        }
    }

    private int run(PrintWriter out, PrintWriter progress) throws Exception {
        referenceUnavailable = hosts != null ? "not run with --layout hosts" : noReference ? "--no-reference" : null;
        java.util.List<FailoverBenchReport.Trial> done = new java.util.ArrayList<>();
        nextPair = hosts != null ? null : startPair();
        for (int i = 1; i <= trials; i++) {
            FailoverBenchReport.Trial trial;
            try {
                trial = trial(i);
            } catch (Exception | AssertionError e) { // an AssertionError: something awaited did not come in time
                trial = new FailoverBenchReport.Trial(null, -1, -1, e.getClass().getSimpleName() + ": " + e.getMessage());
            }
            done.add(trial);
            progress.println(FailoverBenchReport.progress(i, trials, trial));
            progress.flush();
        }
        if (nextPair != null) { // only after a failure in the last trial's teardown
            closeQuietly(nextPair);
        }
        FailoverBenchReport report = new FailoverBenchReport(layout, hosts == null ? Map.of() : hosts.toMap(),
                rehearse ? HostsLayout.REHEARSAL : null, mode, rate, writers, applySynchronousCommit(), referenceUnavailable, done);
        if (json) {
            out.println(new ObjectMapper().writeValueAsString(report.toMap()));
        } else {
            out.print(report.table());
        }
        out.flush();
        return report.pass() ? 0 : 1;
    }

    private FailoverBenchReport.Trial trial(int index) throws Exception {
        if (hosts != null) {
            return hostsTrial(index);
        }
        CompletableFuture<PostgresPair> starting = nextPair != null ? nextPair : startPair();
        nextPair = null;
        PostgresPair pair;
        try {
            pair = starting.join();
        } catch (CompletionException e) {
            startNextPair(index);
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
        try (PostgresPair servers = pair) {
            PostgresServer primary = servers.primary();
            PostgresServer replica = servers.replica();
            primary.execute(ClientWriter.SCHEMA);
            replica.execute(ClientWriter.SCHEMA);
            if (referenceUnavailable == null) {
                referenceUnavailable = PhysicalStandby.unavailable(primary).orElse(null);
            }
            PhysicalStandby reference = referenceUnavailable == null ? PhysicalStandby.create(primary) : null;
            try {
                FailoverOutcome outcome;
                PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
                try (ReplicationRoles roles = ReplicationRoles.start("bench", primary, replica,
                        ShmPaths.ring("rdmarepl-bench-failover-" + ProcessHandle.current().pid() + "-" + index), ROLES_TOKEN, registry,
                        "sync".equals(mode), applySynchronousCommit());
                     InProcessCoordinator coordinator = InProcessCoordinator.start("bench-failover", primary, replica, roles, ROLES_TOKEN,
                             registry, stateDir)) {
                    outcome = new FailoverTrial(primary, replica, coordinator, message -> { }, roles.syncWitness(primary))
                            .run(rate, writers, Duration.ofMillis(warmupMs), Duration.ofMillis(writeOnMs));
                }
                String failed = failure(outcome);
                if (reference == null) {
                    return new FailoverBenchReport.Trial(outcome, -1, -1, failed);
                }
                long promoteUs = reference.promoteToFirstWriteUs(ClientWriter.TABLE);
                Set<Long> lost = new HashSet<>(outcome.acknowledgedByOldIds());
                lost.removeAll(reference.ids(ClientWriter.TABLE));
                return new FailoverBenchReport.Trial(outcome, promoteUs, lost.size(), failed);
            } finally {
                startNextPair(index); // everything measured: the next pair starts while these servers stop
                if (reference != null) {
                    reference.close();
                }
            }
        }
    }

    /** Why {@code outcome} did not pass, or null when it did. */
    private static String failure(FailoverOutcome outcome) {
        return outcome.pass() ? null : outcome.transitionsBeforeKill() > 0
                ? "the coordinator failed over the healthy primary before the kill: " + outcome.history().get(0).get("reason")
                : outcome.sync() && outcome.lostAcknowledged() > 0
                ? "SYNC MODE LOST " + outcome.lostAcknowledged() + " ACKNOWLEDGED TRANSACTION(S): " + outcome.toMap()
                : "the failover did not pass: " + outcome.toMap();
    }

    /**
     * One trial of {@code --layout hosts}: a new cluster (servers, role processes, coordinator, network), the same trial
     * as the shared layout's against it, then everything stopped. Its directory (configurations, role logs) is removed
     * when the trial passed, kept and named otherwise.
     */
    private FailoverBenchReport.Trial hostsTrial(int index) throws Exception {
        Map<String, String> applier = applySynchronousCommit() == null ? Map.of()
                : Map.of("apply.synchronous.commit", applySynchronousCommit());
        Path directory = hosts.newDirectory(index, stateDir);
        FailoverBenchReport.Trial trial;
        List<String> jvm = roleJavaOpts.isBlank() ? List.of() : List.of(roleJavaOpts.trim().split("\\s+"));
        boolean sync = "sync".equals(mode);
        try (HostCluster cluster = hosts.start(directory, jvm, sync ? Map.of("replication.mode", "sync") : Map.of(), applier)) {
            if (rehearse) {
                HostsLayout.rehearse(cluster);
            }
            SyncWitness witness = sync ? HostSyncWitness.awaitSyncOn(cluster, HostsLayout.PRIMARY, HostsLayout.STANDBY, SYNC_ON_TIMEOUT)
                    : null;
            RemoteCoordinator coordinator = new RemoteCoordinator(cluster.coordinator(), HostsLayout.STANDBY);
            FailoverOutcome outcome = new FailoverTrial(cluster.server(HostsLayout.PRIMARY), cluster.server(HostsLayout.STANDBY), coordinator,
                    message -> { }, witness).run(rate, writers, Duration.ofMillis(warmupMs), Duration.ofMillis(writeOnMs));
            String failed = failure(outcome);
            trial = new FailoverBenchReport.Trial(outcome, -1, -1, failed == null ? null : failed + " (role logs in " + directory + ")");
        } catch (Exception | AssertionError e) { // an AssertionError: something awaited did not come in time
            throw new IllegalStateException(e.getClass().getSimpleName() + ": " + e.getMessage() + " (role logs in " + directory + ")", e);
        }
        if (trial.error() == null && !keepLogs) {
            InProcessCoordinator.deleteQuietly(directory);
        } else if (trial.error() == null) {
            spec.commandLine().getErr().println("trial " + index + ": configurations and role logs kept in " + directory);
        }
        return trial;
    }

    /** The applier's synchronous_commit: as asked, else on in sync mode, else null (the applier's default). */
    private String applySynchronousCommit() {
        return applySynchronousCommit != null ? applySynchronousCommit : "sync".equals(mode) ? "on" : null;
    }

    private void startNextPair(int index) {
        if (index < trials && nextPair == null) {
            nextPair = startPair();
        }
    }

    private static CompletableFuture<PostgresPair> startPair() {
        return CompletableFuture.supplyAsync(() -> PostgresPair.start(Durability.DURABLE), task -> {
            Thread thread = new Thread(task, "rdmarepl-bench-failover-next-pair");
            thread.setDaemon(true);
            thread.start();
        });
    }

    private static void closeQuietly(CompletableFuture<PostgresPair> pair) {
        try {
            pair.join().close();
        } catch (RuntimeException ignored) {
            // it did not start, or does not stop: the next run removes what is left
        }
    }

    private void validate() {
        java.util.List<String> problems = new java.util.ArrayList<>();
        if (trials < 1 || trials > 1000) {
            problems.add("--trials " + trials + ": must be 1..1000");
        }
        if (!"async".equals(mode) && !"sync".equals(mode)) {
            problems.add("--mode " + mode + ": must be async or sync");
        }
        if (!"shared".equals(layout) && !"hosts".equals(layout)) {
            problems.add("--layout " + layout + ": must be shared or hosts");
        }
        if (rehearse && !"hosts".equals(layout)) {
            problems.add("--rehearse: with --layout hosts only (the shared layout's roles stay warm from one trial to the next)");
        }
        if (applySynchronousCommit != null && !java.util.Set.of("on", "off", "local", "remote_write", "remote_apply")
                .contains(applySynchronousCommit)) {
            problems.add("--apply-synchronous-commit " + applySynchronousCommit + ": must be on, off, local, remote_write or remote_apply");
        }
        if (writeOnMs < 0 || writeOnMs > 600_000) {
            problems.add("--write-on-ms " + writeOnMs + ": must be 0..600000");
        }
        if (writers < 1 || writers > 64) {
            problems.add("--writers " + writers + ": must be 1..64");
        }
        if (rate < 0 || rate > 100_000) {
            problems.add("--rate " + rate + ": must be 0 (full speed) .. 100000");
        }
        if (warmupMs < 0 || warmupMs > 600_000) {
            problems.add("--warmup-ms " + warmupMs + ": must be 0..600000");
        }
        if (stateDir != null && !java.nio.file.Files.isDirectory(stateDir)) {
            problems.add("--state-dir " + stateDir + ": not a directory");
        }
        if (!problems.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "invalid options:\n  " + String.join("\n  ", problems));
        }
    }
}
