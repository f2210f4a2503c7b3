package io.rdmarepl.harness.bench.copy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.harness.bench.cpu.CpuAccount;
import io.rdmarepl.harness.bench.lag.Endpoint;
import io.rdmarepl.harness.bench.lag.MachineFacts;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresPair;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rdmarepl bench copy}: how long the initial copy of pgbench's tables into an empty replica takes, by rdmarepl
 * (the native engine's copy, shipper and applier over shm) and by PostgreSQL's own subscription with
 * {@code copy_data = true}, on the same two embedded servers, one after the other, the order alternating by round.
 * A rejoin after a failover is such a copy, so this is also how long a cluster runs without a standby.
 * <pre>
 *   primary, database rdmarepl_copy: pgbench -i -s SCALE (accounts, branches, tellers; history empty)
 *      |-- rdmarepl: COPY in the slot's snapshot -> shipper -> shm ring -> applier --> replica rdmarepl_copy_rdmarepl
 *      '-- postgresql: publication -> table sync workers -----------------------------> replica rdmarepl_copy_native
 *   timed from the start (the slot is created inside the time) until the copy is complete on the replica
 * </pre>
 */
@Command(name = "copy",
        mixinStandardHelpOptions = true,
        description = {"Initial copy of pgbench's tables into an empty replica: rdmarepl against PostgreSQL's own subscription"
                + " (copy_data = true), on the same servers, the order alternating by round; fresh replica tables every time.",
                "rdmarepl is done when its applier applied the copy's closing transaction, PostgreSQL when pg_subscription_rel shows"
                        + " every table ready. The replica's rows are checked against the primary's after every copy (counts and a hash of every"
                        + " row's text).",
                "Exit code 0 when every copy held exactly the primary's rows and nothing was left behind on the servers."})
public final class CopyBenchCommand implements Callable<Integer> {
    static final String BENCH_DATABASE = "rdmarepl_copy";
    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long PROGRESS_NS = TimeUnit.SECONDS.toNanos(5);
    /** How often the CPU account is read during a copy, to keep what processes and threads that end meanwhile spent. */
    private static final long CPU_SAMPLE_NS = TimeUnit.MILLISECONDS.toNanos(250);

    @Option(names = "--scale", defaultValue = "20",
            description = "pgbench scale: 100,000 account rows each (20: 2,000,000 rows, 299 MB). Default: ${DEFAULT-VALUE}.")
    int scale;

    @Option(names = "--rounds", defaultValue = "1", description = "Rounds; each system copies once per round. Default: ${DEFAULT-VALUE}.")
    int rounds;

    @Option(names = "--timeout-s", defaultValue = "1800", description = "How long one copy may take before the run fails. Default: ${DEFAULT-VALUE}.")
    int timeoutSeconds;

    @Option(names = "--fsync", defaultValue = "on", paramLabel = "on|off",
            description = "Embedded servers: on = fsync, synchronous_commit and full_page_writes on (durable); off = all three off."
                    + " Default: ${DEFAULT-VALUE}.")
    String fsync;

    @Option(names = "--shipper", paramLabel = "KEY=VALUE",
            description = "A shipper setting for rdmarepl's copies (repeatable), e.g. snapshot.parallel.tables=1.")
    Map<String, String> shipperSettings;

    @Option(names = "--applier", paramLabel = "KEY=VALUE", description = "An applier setting for rdmarepl's copies (repeatable).")
    Map<String, String> applierSettings;

    @Option(names = "--json", paramLabel = "FILE|-", description = "Write the figures as one JSON object to FILE, or to stdout (-) instead of the table.")
    String json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (scale < 1 || scale > 10_000) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--scale " + scale + ": must be between 1 and 10000");
        }
        if (rounds < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--rounds " + rounds + ": must be at least 1");
        }
        if (!fsync.equals("on") && !fsync.equals("off")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--fsync " + fsync + ": must be on or off");
        }
        PrintWriter out = spec.commandLine().getOut();
        double loadStart = MachineFacts.loadAverage();
        Durability durability = fsync.equals("on") ? Durability.DURABLE : Durability.FAST;
        say("starting two PostgreSQL servers, " + durability.describe());
        try (PostgresPair servers = PostgresPair.start(durability)) {
            Endpoint primary = Endpoint.of(servers.primary());
            Endpoint replica = Endpoint.of(servers.replica());
            say("creating pgbench's tables at scale " + scale + " on the primary");
            primary.execute("postgres", "CREATE DATABASE " + BENCH_DATABASE);
            PgbenchTables.create(primary, BENCH_DATABASE, scale);
            Map<String, Long> source = PgbenchTables.rows(primary, BENCH_DATABASE);
            Map<String, String> sourceDigest = PgbenchTables.digest(primary, BENCH_DATABASE);
            long sourceBytes = PgbenchTables.bytes(primary, BENCH_DATABASE);
            List<CopySystem> systems = List.of(
                    new RdmareplCopy(primary, BENCH_DATABASE, replica, orEmpty(shipperSettings), orEmpty(applierSettings)),
                    new NativeCopy(primary, BENCH_DATABASE, replica));
            Map<String, Map<String, Object>> settings = new LinkedHashMap<>();
            systems.forEach(s -> settings.put(s.name(), s.settings()));
            List<CopyRound> results = new ArrayList<>();
            for (int round = 1; round <= rounds; round++) {
                List<CopySystem> order = round % 2 == 1 ? systems : List.of(systems.get(1), systems.get(0));
                for (CopySystem system : order) {
                    results.add(measure(system, round, primary, replica, source, sourceDigest));
                }
            }
            Map<String, Object> machine = MachineFacts.of(loadStart, MachineFacts.loadAverage(), primary, replica);
            Map<String, Object> report = CopyBenchReport.build(scale, rounds, source, sourceBytes, results, settings, machine,
                    leftovers(primary, replica));
            String jsonText = new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(report);
            if ("-".equals(json)) {
                out.println(jsonText);
            } else {
                out.print(CopyBenchReport.table(report));
                if (json != null) {
                    Files.writeString(Path.of(json), jsonText + System.lineSeparator());
                    out.println("json: " + Path.of(json).toAbsolutePath());
                }
            }
            out.flush();
            return Boolean.TRUE.equals(report.get("pass")) ? 0 : 1;
        }
    }

    /** One copy: fresh empty tables in a fresh replica database, both servers checkpointed, then timed to completion. */
    private CopyRound measure(CopySystem system, int round, Endpoint primary, Endpoint replica, Map<String, Long> source,
                              Map<String, String> sourceDigest) throws Exception {
        String target = system.targetDatabase();
        replica.execute("postgres", "DROP DATABASE IF EXISTS " + target + " WITH (FORCE)");
        replica.execute("postgres", "CREATE DATABASE " + target);
        replica.execute(target, PgbenchTables.SCHEMA);
        primary.execute("postgres", "CHECKPOINT");
        replica.execute("postgres", "CHECKPOINT");
        try (system) {
            system.prepare(round);
            say(String.format(Locale.ROOT, "round %d/%d, %s: copying", round, rounds, system.name()));
            CpuAccount cpuBefore = CpuAccount.now();
            CpuAccount cpuSeen = cpuBefore;
            long startNs = System.nanoTime();
            system.start();
            long lastSayNs = startNs;
            long lastCpuNs = startNs;
            while (!system.done()) {
                long nowNs = System.nanoTime();
                String failure = system.failure();
                if (failure != null) {
                    throw new IllegalStateException(system.name() + " failed during the copy: " + failure);
                }
                if (nowNs - startNs > TimeUnit.SECONDS.toNanos(timeoutSeconds)) {
                    throw new IllegalStateException(system.name() + " did not finish the copy within " + timeoutSeconds + " s: "
                            + system.progress());
                }
                if (nowNs - lastCpuNs >= CPU_SAMPLE_NS) {
                    lastCpuNs = nowNs;
                    cpuSeen = cpuSeen.updatedBy(CpuAccount.now());
                }
                if (nowNs - lastSayNs >= PROGRESS_NS) {
                    lastSayNs = nowNs;
                    say(String.format(Locale.ROOT, "round %d/%d, %s: %.0f s, %s", round, rounds, system.name(),
                            (nowNs - startNs) / 1e9, system.progress()));
                }
                LockSupport.parkNanos(POLL_NS);
            }
            double seconds = (System.nanoTime() - startNs) / 1e9;
            Map<String, Double> cpu = cpuBefore.millis(cpuSeen.updatedBy(CpuAccount.now()), target, BENCH_DATABASE);
            say(String.format(Locale.ROOT, "round %d/%d, %s: %s", round, rounds, system.name(),
                    CpuAccount.describe("CPU ms:", cpu)));
            Map<String, Long> rows = PgbenchTables.rows(replica, target);
            String problem = system.check();
            if (!rows.equals(source)) {
                problem = (problem == null ? "" : problem + "; ") + "the replica holds " + rows + ", the primary " + source;
            } else {
                Map<String, String> digest = PgbenchTables.digest(replica, target);
                if (!digest.equals(sourceDigest)) {
                    problem = (problem == null ? "" : problem + "; ") + "the replica's rows differ from the primary's: "
                            + digest + " against " + sourceDigest;
                }
            }
            say(String.format(Locale.ROOT, "round %d/%d, %s: copied in %.2f s%s", round, rounds, system.name(), seconds,
                    problem == null ? "" : "; " + problem));
            return new CopyRound(system.name(), round, seconds, rows, PgbenchTables.bytes(replica, target), problem, system.details(),
                    cpu);
        } finally {
            replica.execute("postgres", "DROP DATABASE IF EXISTS " + target + " WITH (FORCE)");
        }
    }

    /** Subscriptions, replication slots and publications of the benchmark still on the servers. */
    private static Map<String, Long> leftovers(Endpoint primary, Endpoint replica) {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("subscriptions", Long.parseLong(replica.query("postgres", "SELECT count(*) FROM pg_subscription")));
        m.put("replication_slots", Long.parseLong(primary.query("postgres", "SELECT count(*) FROM pg_replication_slots")));
        m.put("publications", Long.parseLong(primary.query(BENCH_DATABASE, "SELECT count(*) FROM pg_publication")));
        return m;
    }

    private void say(String message) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("bench copy: " + message);
        err.flush();
    }

    private static Map<String, String> orEmpty(Map<String, String> settings) {
        return settings == null ? Map.of() : settings;
    }
}
