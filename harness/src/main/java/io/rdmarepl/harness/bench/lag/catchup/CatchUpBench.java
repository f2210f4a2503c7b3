package io.rdmarepl.harness.bench.lag.catchup;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.harness.bench.lag.Endpoint;
import io.rdmarepl.harness.bench.lag.MachineFacts;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresPair;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code rdmarepl bench lag --catch-up SECONDS}: how fast each system applies a backlog it was kept from while the
 * primary ran pgbench's tpcb-like flat out, one system at a time on the same servers and the same backlog
 * ({@link CatchUpRun}), rdmarepl once per {@code --apply-workers} value; every replica checked against the primary.
 * <pre>
 *   primary, database rdmarepl_catchup: pgbench tables; every system attached, then paused (slot kept)
 *      |  --clients TPC-B clients flat out for SECONDS, then a marker transaction: the backlog
 *      |-- rdmarepl (apply.workers=N): shipper + applier started again ----> replica rdmarepl_catchup_shm_wN
 *      '-- postgresql: ALTER SUBSCRIPTION ... ENABLE ---------------------> replica rdmarepl_catchup_native
 *   each alone, timed from its resumption until its replica holds the marker; then compared with the primary
 * </pre>
 */
public final class CatchUpBench {
    private final CatchUpSettings settings;
    private final PrintWriter out;
    private final PrintWriter err;

    public CatchUpBench(CatchUpSettings settings, PrintWriter out, PrintWriter err) {
        this.settings = settings;
        this.out = out;
        this.err = err;
    }

    /** @return the exit code: 0 when every system caught up every round into a replica equal to the primary, else 1 */
    public int run() throws Exception {
        double loadStart = MachineFacts.loadAverage();
        if (settings.attached()) {
            return measure(settings.primary(), settings.replica(), loadStart);
        }
        Durability durability = settings.fsync() ? Durability.DURABLE : Durability.FAST;
        say("starting two PostgreSQL servers, " + durability.describe());
        try (PostgresPair servers = PostgresPair.start(durability)) {
            return measure(Endpoint.of(servers.primary(), settings.localSockets()),
                    Endpoint.of(servers.replica(), settings.localSockets()), loadStart);
        }
    }

    private int measure(Endpoint primary, Endpoint replica, double loadStart) throws Exception {
        CatchUpRun run = new CatchUpRun(settings, primary, replica, this::say);
        List<CatchUpSystem> systems = run.systems(ApplyWorkers.known());
        run.notRun().forEach(skipped -> say("not run: " + skipped.get("system") + ": " + skipped.get("reason")));
        run.prepare(systems);
        CatchUpRun.Result result;
        try {
            result = run.run(systems);
        } catch (Exception | Error e) {
            try {
                run.dropDatabases(systems);
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        Map<String, Long> cleanup = new LinkedHashMap<>(CatchUpLeftovers.replication(primary, CatchUpRun.BENCH_DATABASE, replica));
        Map<String, Object> machine = MachineFacts.of(loadStart, MachineFacts.loadAverage(), primary, replica);
        run.dropDatabases(systems);
        cleanup.put("databases", CatchUpLeftovers.databases(primary, replica));
        Map<String, Object> report = CatchUpReport.build(systems, result, settings.rounds(), run.notRun(), settings.toMap(), machine, cleanup);
        String jsonText = new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(report);
        if ("-".equals(settings.json())) {
            out.println(jsonText);
        } else {
            out.print(CatchUpReport.table(report));
            if (settings.json() != null) {
                Files.writeString(Path.of(settings.json()), jsonText + System.lineSeparator());
                out.println("json: " + Path.of(settings.json()).toAbsolutePath());
            }
        }
        out.flush();
        return Boolean.TRUE.equals(report.get("pass")) ? 0 : 1;
    }

    private void say(String message) {
        err.println("bench lag --catch-up: " + message);
        err.flush();
    }
}
