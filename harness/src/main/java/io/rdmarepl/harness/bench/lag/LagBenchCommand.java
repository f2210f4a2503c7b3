package io.rdmarepl.harness.bench.lag;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.harness.bench.lag.catchup.CatchUpBench;
import io.rdmarepl.harness.bench.lag.catchup.CatchUpOptions;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresPair;
import io.rdmarepl.testsupport.PostgresServer;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rdmarepl bench lag}: commit -> applied lag of rdmarepl and of PostgreSQL's own logical replication,
 * side by side on the same two servers, one system after the other, round after round. With {@code --mode sync}:
 * the commit latency on the primary of rdmarepl async and sync and of PostgreSQL's synchronous logical and
 * physical replication, and per probe where a synchronous commit's time goes (to the replica's apply, and back). With
 * {@code --catch-up SECONDS}: how fast each system applies a backlog it was paused through
 * ({@link io.rdmarepl.harness.bench.lag.catchup.CatchUpBench}).
 * <pre>
 *   probe (--probe-rate/s, sent_at = clock_timestamp())  +  TPC-B load (--load, --clients)
 *      |
 *      v
 *   primary, database rdmarepl_lag ---- rdmarepl: Debezium -> shipper -> ring (shm | softrdma) -> applier --+
 *      |                          \---- postgresql: publication -> walsender -> subscription apply worker ---+
 *      |                                                                                                    v
 *      |                                          replica server: database rdmarepl_lag_&lt;system&gt;, probe.applied_at
 *      +-- lag = applied_at - sent_at (ENABLE ALWAYS trigger, one clock), HdrHistogram after the warm-up
 * </pre>
 */
@Command(name = "lag",
        mixinStandardHelpOptions = true,
        description = {"Commit -> applied lag of rdmarepl (per transport) and of PostgreSQL's own logical replication, side by side.",
                "Each system runs in turn on fresh tables, --rounds times, the order alternating. Probe rows are stamped on the primary"
                        + " and, by an ENABLE ALWAYS trigger, on the replica.",
                "Prints p50..max and the ratios rdmarepl / PostgreSQL, commit latency, throughput, catch-up and rdmarepl's stages;"
                        + " --json and --chart write the figures.",
                "--mode sync: commit latency on the primary of rdmarepl async and sync and of PostgreSQL's synchronous logical and"
                        + " physical replication, in the same run, and where a synchronous commit's time goes.",
                "--catch-up SECONDS: how fast each system applies a backlog it was paused through (pgbench's tpcb-like, flat out),"
                        + " rdmarepl per --apply-workers value; every replica compared with the primary.",
                "Exit code 0 when every system produced samples, lost no probe, stayed synchronous where it should and left"
                        + " nothing behind on the servers (synchronous_standby_names included); with --catch-up, when every system"
                        + " caught up every round into a replica equal to the primary and nothing was left behind."})
public final class LagBenchCommand implements Callable<Integer> {

    @Option(names = "--seconds", defaultValue = "20", description = "Measured window of each system in each round. Default: ${DEFAULT-VALUE}.")
    int seconds;

    @Option(names = "--warmup-seconds", defaultValue = "5",
            description = "Probe and load run first and left out of the figures (JIT, caches). Default: ${DEFAULT-VALUE}.")
    int warmupSeconds;

    @Option(names = "--rounds", defaultValue = "3", description = "Rounds; every system runs once per round, the order alternating. Default: ${DEFAULT-VALUE}.")
    int rounds;

    @Option(names = "--probe-rate", defaultValue = "500", description = "Probe rows per second (one connection, autocommit). Default: ${DEFAULT-VALUE}.")
    int probeRate;

    @Option(names = "--load", defaultValue = "none", paramLabel = "none|N|max",
            description = "Background TPC-B load: none, N transactions per second (all clients together), or max (flat out). Default: ${DEFAULT-VALUE}.")
    String load;

    @Option(names = "--clients", defaultValue = "4", description = "Connections running the load. Default: ${DEFAULT-VALUE}.")
    int clients;

    @Option(names = "--rows-per-tx", defaultValue = "1",
            description = "Account updates (each with a history row) per load transaction, besides one teller and one branch. Default: ${DEFAULT-VALUE}.")
    int rowsPerTx;

    @Option(names = "--row-bytes", defaultValue = "100", description = "Filler bytes of each history row. Default: ${DEFAULT-VALUE}.")
    int rowBytes;

    @Option(names = "--transports", defaultValue = "shm", split = ",", paramLabel = "shm|softrdma",
            description = "rdmarepl's ring transports to measure, comma-separated: shm, softrdma (the verbs code over the software"
                    + " RDMA provider, emulation; needs RDMAREPL_CHANNEL_SECRET). Default: ${DEFAULT-VALUE}.")
    List<String> transports;

    @Option(names = "--native-sync", paramLabel = "off|local|remote_write|remote_apply|on",
            description = "synchronous_commit of the replica-side apply: the subscription's, and the same for rdmarepl's applier"
                    + " (apply.synchronous.commit), so both commit alike. Default: off; with --mode sync on (durable on the replica).")
    String nativeSync;

    @Option(names = "--mode", defaultValue = "lag", paramLabel = "lag|sync",
            description = {"lag: commit -> applied lag of rdmarepl (async) and PostgreSQL's logical replication.",
                    "sync: commit latency on the primary of rdmarepl async, rdmarepl sync (replication.mode=sync, strict),"
                            + " PostgreSQL's synchronous logical replication and a physical synchronous standby (embedded servers),"
                            + " in the same run; and where a synchronous commit's time goes. Default: ${DEFAULT-VALUE}."})
    String mode;

    @Option(names = "--sync-level", paramLabel = "remote_apply|remote_flush",
            description = "With --mode sync, what a commit waits for: remote_apply (the measured sessions run synchronous_commit"
                    + " = remote_apply; rdmarepl sync.level=remote_apply) or remote_flush (synchronous_commit = on;"
                    + " sync.level=remote_flush). Default: remote_apply.")
    String syncLevel;

    @Option(names = "--shipper", paramLabel = "KEY=VALUE",
            description = "A shipper setting for rdmarepl's runs (repeatable), e.g. heartbeat.interval.ms=1 or"
                    + " debezium.max.batch.size=...; not the keys the benchmark sets itself.")
    Map<String, String> shipperSettings;

    @Option(names = "--applier", paramLabel = "KEY=VALUE",
            description = "An applier setting for rdmarepl's runs (repeatable), e.g. apply.idle.max.park.us=50.")
    Map<String, String> applierSettings;

    @Option(names = "--fsync", paramLabel = "on|off",
            description = "Embedded servers: on = fsync, synchronous_commit and full_page_writes on (durable); off = all three off. Default: on.")
    String fsync;

    @Option(names = "--primary", paramLabel = "JDBC-URL",
            description = "Attach to a running primary (wal_level=logical, a superuser or a user with REPLICATION and CREATEDB) instead of"
                    + " starting embedded servers, e.g. jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres. Needs --replica.")
    String primaryUrl;

    @Option(names = "--replica", paramLabel = "JDBC-URL",
            description = "Attach to a running replica server (it gets databases rdmarepl_lag_*, and a subscription). Needs --primary.")
    String replicaUrl;

    @Option(names = "--local-connections", paramLabel = "socket|tcp", defaultValue = "socket",
            description = "How rdmarepl's shipper and applier reach the embedded server on their own host (the primary, the"
                    + " replica): over its Unix-domain socket, as sidecars do, or over TCP loopback. PostgreSQL's subscriber"
                    + " always connects to the primary over TCP, as from the standby's host. Default: ${DEFAULT-VALUE}.")
    String localConnections;

    @Option(names = "--capture-poll-ms", defaultValue = "1",
            description = "The shipper's capture.poll.interval.ms, which only capture.engine=debezium uses (its default is"
                    + " 5). Default: ${DEFAULT-VALUE}.")
    int capturePollMs;

    @Option(names = "--catch-up", paramLabel = "SECONDS",
            description = {"Measure backlog catch-up instead of lag: every system attached to fresh pgbench tables and paused (rdmarepl:"
                    + " shipper and applier stopped; PostgreSQL: ALTER SUBSCRIPTION ... DISABLE; slots kept), --clients connections"
                    + " running pgbench's tpcb-like flat out on the primary for SECONDS, then each system resumed alone and timed until"
                    + " its replica holds the last transaction; the replica is then compared with the primary, every row of every"
                    + " table. Order alternating by round. Takes --rounds, --clients, --scale, --apply-workers, --transports,"
                    + " --native-sync, --shipper, --applier, --capture-poll-ms, --fsync, --primary/--replica, --json."})
    Integer catchUp;

    @Option(names = "--apply-workers", split = ",", paramLabel = "N",
            description = "With --catch-up: rdmarepl runs once per value with the applier's apply.workers=N, 1 included."
                    + " Default: 1.")
    List<String> applyWorkers;

    @Option(names = "--scale", paramLabel = "N",
            description = "With --catch-up: pgbench scale (per unit 1 branch, 10 tellers, 100,000 accounts). As pgbench advises, at"
                    + " least --clients: at scale 1 every transaction updates the one branch row, so none is independent of"
                    + " another. Default: " + CatchUpOptions.DEFAULT_SCALE + ".")
    Integer scale;

    @Option(names = "--script", paramLabel = "NAME",
            description = "With --catch-up: pgbench's built-in script the load runs: " + CatchUpOptions.TPCB_LIKE + " (account,"
                    + " teller, branch, history) or " + CatchUpOptions.SIMPLE_UPDATE + " (account and history, pgbench -N: no row"
                    + " that every transaction contends for). Default: " + CatchUpOptions.TPCB_LIKE + ".")
    String script;

    @Option(names = "--json", paramLabel = "FILE|-", description = "Write the figures as one JSON object to FILE, or to stdout (-) instead of the table.")
    String json;

    @Option(names = "--chart", paramLabel = "FILE", description = "Draw the lag CDFs and the lag over time into FILE (.png or .svg).")
    Path chart;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        LagBenchSettings settings;
        try {
            settings = LagBenchSettings.of(this, System.getenv());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        if (settings.catchUp() != null) {
            return new CatchUpBench(settings.catchUpSettings(), out, spec.commandLine().getErr()).run();
        }
        try (Progress progress = new Progress(spec.commandLine().getErr(), settings.rounds())) {
            double loadStart = MachineFacts.loadAverage();
            if (settings.attached()) {
                return measure(settings, settings.primary(), settings.replica(), null, loadStart, progress, out);
            }
            Durability durability = settings.fsync() ? Durability.DURABLE : Durability.FAST;
            progress.say("starting two PostgreSQL servers, " + durability.describe());
            try (PostgresPair servers = PostgresPair.start(durability)) {
                return measure(settings, Endpoint.of(servers.primary(), settings.localSockets()),
                        Endpoint.of(servers.replica(), settings.localSockets()),
                        servers.primary(), loadStart,
                        progress, out);
            }
        }
    }

    /** The options given on the command line, by the name typed ({@code --load}); empty when not parsed by picocli. */
    Set<String> given() {
        CommandLine.ParseResult parsed = spec == null ? null : spec.commandLine().getParseResult();
        if (parsed == null) {
            return Set.of();
        }
        Set<String> names = new HashSet<>();
        parsed.matchedOptions().forEach(option -> names.addAll(List.of(option.names())));
        return names;
    }

    /** @param primaryServer the embedded primary (a physical standby is built from it), null when attached */
    private int measure(LagBenchSettings settings, Endpoint primary, Endpoint replica, PostgresServer primaryServer, double loadStart,
                        Progress progress, PrintWriter out) throws Exception {
        LagBenchRun run = new LagBenchRun(settings, primary, replica, primaryServer, progress);
        List<ReplicationSystem> systems = run.systems();
        run.prepare(systems);
        List<SystemResult> results;
        try {
            results = run.run(systems);
        } catch (Exception | Error e) {
            run.releaseCommits(); // a failed round must not leave the primary's commits waiting for a standby that is gone
            throw e;
        }
        progress.close();
        Map<String, Object> leftovers = Leftovers.count(primary, LagBenchRun.BENCH_DATABASE, replica);
        Map<String, Object> machine = MachineFacts.of(loadStart, MachineFacts.loadAverage(), primary, replica);
        if (settings.attached()) {
            run.dropDatabases(systems);
        }
        String chartFile = null;
        if (settings.chart() != null) {
            LagChart.write(settings.chart(), results, String.format(Locale.ROOT, "load %s, probe %d/s, fsync %s, %d x %d s",
                    settings.load(), settings.probeRate(), machine.get("fsync"), settings.rounds(), settings.seconds()));
            chartFile = settings.chart().toAbsolutePath().toString();
        }
        Map<String, Object> report = LagBenchReport.build(results, settings.toMap(), machine, leftovers, chartFile, run.notRun());
        String jsonText = new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(report);
        if ("-".equals(settings.json())) {
            out.println(jsonText);
        } else {
            out.print(LagBenchReport.table(results, report));
            if (settings.json() != null) {
                Files.writeString(Path.of(settings.json()), jsonText + System.lineSeparator());
                out.println("json: " + Path.of(settings.json()).toAbsolutePath());
            }
        }
        out.flush();
        return Boolean.TRUE.equals(report.get("pass")) ? 0 : 1;
    }
}
