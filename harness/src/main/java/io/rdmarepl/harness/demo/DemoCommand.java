package io.rdmarepl.harness.demo;

import io.rdmarepl.channel.shm.ShmPaths;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rdmarepl.applier.apply.Applier;
import io.rdmarepl.harness.rig.ReplicationRoles;
import io.rdmarepl.shipper.Shipper;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresPair;
import io.rdmarepl.testsupport.PostgresServer;
import io.rdmarepl.testsupport.compare.ComparisonReport;
import io.rdmarepl.testsupport.compare.Difference;
import io.rdmarepl.testsupport.compare.ReplicaComparison;
import io.rdmarepl.testsupport.compare.TableResult;
import io.rdmarepl.testsupport.history.ClientWriter;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rdmarepl demo}: the whole path on one machine. Two real PostgreSQL servers (embedded,
 * from Maven artifacts), the applier and the shipper (threads of this process, each with its admin
 * endpoint as {@code rdmarepl apply} and {@code rdmarepl ship} serve it). Act one: a mixed workload,
 * then replica = primary checked table by table ({@link ReplicaComparison}: every table and sequence of schema
 * public, every column's exact text, each difference named) and the commit to applied lag printed. Act two
 * ({@link FailoverAct}): the coordinator joins, a client writes through the failover-aware DataSource,
 * the primary is killed with SIGKILL and the replica promoted.
 */
@Command(name = "demo",
        mixinStandardHelpOptions = true,
        description = {"Replicate a mixed workload between two embedded PostgreSQL servers, then check replica = primary;",
                "then kill the primary (SIGKILL) under a client's writes and fail over to the replica.",
                "Exit code 0 only when every table matches and the failover leaves exactly one writable primary (PASS)."})
public final class DemoCommand implements Callable<Integer> {

    @Option(names = "--seconds", defaultValue = "20", description = "Length of the workload. Default: ${DEFAULT-VALUE}.")
    int seconds;

    @Option(names = "--transport", defaultValue = "shm", description = "Ring transport: shm. Default: ${DEFAULT-VALUE}.")
    String transport;

    @Option(names = "--clients", defaultValue = "4", description = "Concurrent clients on the primary. Default: ${DEFAULT-VALUE}.")
    int clients;

    @Option(names = "--probe-rate", defaultValue = "200", description = "Lag probes per second. Default: ${DEFAULT-VALUE}.")
    int probeRate;

    @Option(names = "--rate", defaultValue = "300",
            description = "Client transactions per second, all clients together; 0 = as fast as they can. Default: ${DEFAULT-VALUE}.")
    int rate;

    @Option(names = "--warmup-seconds", defaultValue = "5",
            description = "Workload run first and left out of the lag figures (the JIT compiles the capture path). Default: ${DEFAULT-VALUE}.")
    int warmupSeconds;

    @Option(names = "--json", description = "Print one JSON object instead of the report.")
    boolean json;

    @Option(names = "--no-failover", description = "Skip act two (kill the primary, fail over).")
    boolean noFailover;

    /** Bearer token of the in-process shipper's and applier's control actions, which the coordinator uses. */
    private static final String ROLES_TOKEN = UUID.randomUUID().toString();
    /** Differences listed in the report and the JSON; the comparison counts them all. */
    private static final int SHOWN_DIFFERENCES = 50;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        validate();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter progress = spec.commandLine().getErr();
        Path ring = ShmPaths.ring("rdmarepl-demo-" + ProcessHandle.current().pid());
        String ringUri = "shm://" + ring.toAbsolutePath();
        say(progress, "starting two PostgreSQL 17 servers (fsync on)");
        try (PostgresPair servers = PostgresPair.start(Durability.DURABLE)) {
            PostgresServer primary = servers.primary();
            PostgresServer replica = servers.replica();
            primary.execute(DemoSchema.primary());
            primary.execute(DemoSchema.seed());
            primary.execute(ClientWriter.SCHEMA);
            replica.execute(DemoSchema.replica());
            replica.execute(DemoSchema.seed());
            replica.execute(ClientWriter.SCHEMA);
            say(progress, "starting the applier (" + ringUri + ") and the shipper, each with its admin endpoint");
            PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            try (ReplicationRoles roles = ReplicationRoles.start("demo", primary, replica, ring, ROLES_TOKEN, registry)) {
                Applier applier = roles.applier();
                Shipper shipper = roles.shipper();
                Object engine = shipper.status().get("capture_engine");
                say(progress, "capture engine: " + engine + " (capture.engine)");
                say(progress, "workload: " + clients + " clients (" + (rate == 0 ? "flat out" : rate + " tx/s") + ") and "
                        + probeRate + " probes/s for " + seconds + " s");
                DemoWorkload workload = new DemoWorkload(primary);
                if (warmupSeconds > 0) {
                    say(progress, "warm-up: " + warmupSeconds + " s, left out of the lag figures");
                    workload.run(clients, warmupSeconds, probeRate, rate);
                }
                long firstMeasuredProbe = workload.nextProbeId();
                workload.run(clients, seconds, probeRate, rate);
                long lastProbe = workload.finalProbe();
                say(progress, "waiting for the replica to catch up");
                long caughtUpMs = awaitProbe(replica, lastProbe, applier, shipper);
                ComparisonReport tables = ReplicaComparison.between(primary, replica).schemas("public").run();
                LagReport lag = LagReport.read(replica, firstMeasuredProbe - 1);
                Map<String, Object> report = report(workload, tables, lag, caughtUpMs, ringUri);
                report.put("capture_engine", engine);
                report.put("stages", StageBreakdown.of(registry));
                if (!noFailover) {
                    report.put("failover", Boolean.TRUE.equals(report.get("pass"))
                            ? FailoverAct.run(primary, replica, roles, ROLES_TOKEN, registry, rate, m -> say(progress, m))
                            : Map.of("pass", false, "skipped", "act one (replication) did not pass"));
                    @SuppressWarnings("unchecked")
                    Map<String, Object> failover = (Map<String, Object>) report.get("failover");
                    report.put("pass", Boolean.TRUE.equals(report.get("pass")) && Boolean.TRUE.equals(failover.get("pass")));
                }
                if (json) {
                    out.println(new ObjectMapper().writeValueAsString(report));
                } else {
                    out.print(table(report, tables, lag));
                }
                out.flush();
                return Boolean.TRUE.equals(report.get("pass")) ? 0 : 1;
            }
        }
    }

    private void validate() {
        List<String> problems = new ArrayList<>();
        if (seconds < 1 || seconds > 3600) {
            problems.add("--seconds " + seconds + ": must be 1..3600");
        }
        if (!transport.equals("shm")) {
            problems.add("--transport " + transport + ": only shm is available in this build");
        }
        if (clients < 1 || clients > 64) {
            problems.add("--clients " + clients + ": must be 1..64");
        }
        if (probeRate < 1 || probeRate > 10_000) {
            problems.add("--probe-rate " + probeRate + ": must be 1..10000");
        }
        if (warmupSeconds < 0 || warmupSeconds > 600) {
            problems.add("--warmup-seconds " + warmupSeconds + ": must be 0..600");
        }
        if (rate < 0 || rate > 100_000) {
            problems.add("--rate " + rate + ": must be 0 (flat out) .. 100000");
        }
        if (!problems.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "invalid options:\n  " + String.join("\n  ", problems));
        }
    }

    /** @return milliseconds it took the replica to hold the last probe */
    private static long awaitProbe(PostgresServer replica, long id, Applier applier, Shipper shipper) {
        return Await.until("the replica caught up (probe " + id + " on it)", Duration.ofSeconds(120), () -> {
            if (shipper.failure() != null) {
                throw new AssertionError("shipper failed: " + shipper.failure());
            }
            try (Connection c = replica.connect("postgres"); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT 1 FROM probe WHERE id = " + id)) {
                return rs.next();
            }
        }, () -> "applier " + applier.status().toMap() + ", shipper " + shipper.status());
    }

    private Map<String, Object> report(DemoWorkload workload, ComparisonReport tables, LagReport lag, long caughtUpMs,
                                       String ringUri) {
        long rows = 0;
        List<String> mismatches = new ArrayList<>();
        List<Map<String, Object>> perTable = new ArrayList<>();
        for (TableResult t : tables.tables()) {
            rows += t.primaryRows();
            if (!t.equal()) {
                mismatches.add(t.table());
            }
            Map<String, Object> table = new LinkedHashMap<>();
            table.put("table", t.table());
            table.put("primary_rows", t.primaryRows());
            table.put("replica_rows", t.replicaRows());
            table.put("equal", t.equal());
            table.put("differences", t.differences());
            table.put("replica_only_columns", t.replicaOnlyColumns());
            perTable.add(table);
        }
        tables.sequences().stream().filter(s -> !s.equal()).forEach(s -> mismatches.add(s.sequence()));
        Map<String, Object> lagUs = new LinkedHashMap<>();
        lagUs.put("p50", lag.p50Us());
        lagUs.put("p90", lag.p90Us());
        lagUs.put("p99", lag.p99Us());
        lagUs.put("max", lag.maxUs());
        lagUs.put("samples", lag.samples());
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("pass", tables.equal() && lag.samples() > 0);
        report.put("transport", transport);
        report.put("ring", ringUri);
        report.put("seconds", seconds);
        report.put("warmup_seconds", warmupSeconds);
        report.put("clients", clients);
        report.put("rate", rate);
        report.put("transactions", workload.committed());
        report.put("rolled_back", workload.rolledBack());
        report.put("rows_compared", rows);
        report.put("mismatches", mismatches);
        report.put("tables", perTable);
        report.put("difference_count", tables.differenceCount());
        report.put("differences", tables.differences().stream().limit(SHOWN_DIFFERENCES).map(Difference::toString).toList());
        report.put("lag_us", lagUs);
        report.put("catch_up_ms", caughtUpMs);
        return report;
    }

    private static String table(Map<String, Object> report, ComparisonReport tables, LagReport lag) {
        StringBuilder out = new StringBuilder();
        out.append(String.format("rdmarepl demo: %s transactions committed (%s rolled back) over %s in %s s, captured by %s%n",
                report.get("transactions"), report.get("rolled_back"), report.get("transport"), report.get("seconds"),
                report.get("capture_engine")));
        for (TableResult t : tables.tables()) {
            out.append(String.format("  %-22s %8d rows on the primary, %8s on the replica  %s%s%n", t.table(), t.primaryRows(),
                    t.missingOnReplica() ? "none" : Long.toString(t.replicaRows()),
                    t.equal() ? "equal" : "DIFFERENT (" + t.differences() + (t.differences() == 1 ? " difference)" : " differences)"),
                    t.replicaOnlyColumns().isEmpty() ? "" : " (replica-only, not compared: " + String.join(", ", t.replicaOnlyColumns()) + ")"));
        }
        tables.sequences().forEach(s -> out.append("  ").append(s).append('\n'));
        if (!tables.equal()) {
            out.append("differences (").append(tables.differenceCount()).append("):\n");
            tables.differences().stream().limit(SHOWN_DIFFERENCES).forEach(d -> out.append("  ").append(d).append('\n'));
            if (tables.differenceCount() > SHOWN_DIFFERENCES) {
                out.append("  ... and ").append(tables.differenceCount() - SHOWN_DIFFERENCES).append(" more\n");
            }
        }
        out.append(String.format("commit -> applied lag (%d probes): p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms%n",
                lag.samples(), lag.p50Us() / 1000.0, lag.p90Us() / 1000.0, lag.p99Us() / 1000.0, lag.maxUs() / 1000.0));
        out.append(String.format("caught up %s ms after the workload stopped%n", report.get("catch_up_ms")));
        out.append("stages (ms, from the components' histograms): ").append(report.get("stages")).append('\n');
        @SuppressWarnings("unchecked")
        Map<String, Object> failover = (Map<String, Object>) report.get("failover");
        if (failover != null && failover.containsKey("skipped")) {
            out.append("act two (failover) skipped: ").append(failover.get("skipped")).append('\n');
        } else if (failover != null) {
            out.append(FailoverAct.text(failover));
        }
        List<?> mismatches = (List<?>) report.get("mismatches");
        out.append(Boolean.TRUE.equals(report.get("pass")) ? "PASS\n"
                : "FAIL: " + (mismatches.isEmpty() ? "" : "tables differ " + mismatches + "; ")
                + (failover == null || Boolean.TRUE.equals(failover.get("pass")) ? "" : "the failover did not pass") + "\n");
        return out.toString();
    }

    private void say(PrintWriter progress, String message) {
        if (!json) {
            progress.println("demo: " + message);
            progress.flush();
        }
    }
}
