package io.rdmarepl.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.e2e.FidelityLoss.Phase;
import io.rdmarepl.testsupport.PostgresPair;
import io.rdmarepl.testsupport.PostgresServer;
import io.rdmarepl.testsupport.cluster.RoleProcess;
import io.rdmarepl.testsupport.compare.ComparisonReport;
import io.rdmarepl.testsupport.compare.Difference;
import io.rdmarepl.testsupport.compare.ReplicaComparison;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue #20's acceptance suite: a schema and a workload that break replication tools the way real applications
 * do (src/test/resources/hostile/: every built-in type at its limits, keyless and oddly keyed tables, TOAST,
 * generated and identity columns, partitions with and without publish_via_partition_root, TRUNCATE, hostile
 * identifiers, savepoints, two-phase commit, MERGE, counters several sessions update at once), on servers with
 * hostile settings, replicated by {@code rdmarepl ship} and {@code rdmarepl apply} as processes: first as an initial
 * copy, then streaming under concurrent load. The replica must equal the primary except for exactly the values the
 * capture engine is known to lose ({@link FidelityLoss}); last, values that stop the engine must stop it clearly.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class HostileSchemaIT {
    static final String[] SCHEMAS = {"public", "Odd.Schema"};
    static final String PUBLICATION = "hostile";

    /** Server settings a DBA might have chosen, applied (ALTER SYSTEM, ALTER DATABASE) before any process starts. */
    static final Map<String, String> PRIMARY_SETTINGS = Map.of("DateStyle", "SQL, DMY", "IntervalStyle", "sql_standard",
            "extra_float_digits", "0", "bytea_output", "escape", "TimeZone", "Pacific/Chatham");
    static final Map<String, String> REPLICA_SETTINGS = Map.of("DateStyle", "German", "IntervalStyle", "sql_standard",
            "extra_float_digits", "0", "bytea_output", "escape", "TimeZone", "America/St_Johns");

    private static final Logger LOG = LoggerFactory.getLogger(HostileSchemaIT.class);
    private static final int BLOCK_SESSIONS = 4;
    private static final int COUNTER_SESSIONS = 3;
    private static final int COUNTER_TRANSACTIONS = 500;

    Replication replication;

    /** The capture engine under test ({@code capture.engine}); {@link PgOutputHostileSchemaIT} runs the native one. */
    String engine() {
        return "debezium";
    }

    @BeforeAll
    void startServers() throws Exception {
        replication = Replication.create("hostile-" + engine(), HostileSchemaIT::prepare);
        replication.shipperSetting("capture.engine", engine());
        replication.shipperSetting("snapshot.mode", "initial");
        replication.shipperSetting("publication.name", PUBLICATION);
        replication.applierSetting("ring.capacity.bytes", Integer.toString(32 << 20));
    }

    /** Hostile settings on both servers, the schema on both, the publication and the initial rows on the primary. */
    private static void prepare(PostgresPair servers) {
        PostgresServer primary = servers.primary();
        PostgresServer replica = servers.replica();
        PRIMARY_SETTINGS.forEach((k, v) -> primary.execute("ALTER SYSTEM SET " + k + " = '" + v + "'"));
        primary.execute("ALTER SYSTEM SET max_prepared_transactions = 10");
        primary.restart();
        REPLICA_SETTINGS.forEach((k, v) -> replica.execute("ALTER DATABASE postgres SET " + k + " = '" + v + "'"));
        assertThat(List.of(primary.show("IntervalStyle"), primary.show("bytea_output"), primary.show("max_prepared_transactions"),
                replica.show("IntervalStyle"), replica.show("bytea_output"))).as("the hostile settings are in force")
                .containsExactly("sql_standard", "escape", "10", "sql_standard", "escape");
        HostileSql.runFile(primary, "schema.sql");
        HostileSql.runFile(replica, "schema.sql");
        primary.execute("CREATE PUBLICATION " + PUBLICATION + " FOR ALL TABLES");
        HostileSql.runFile(primary, "initial.sql");
    }

    @AfterAll
    void stopEverything() {
        if (replication != null) {
            replication.close();
        }
    }

    @Test
    @Order(1)
    void initialCopyCarriesEveryValue() throws Exception {
        long startNs = System.nanoTime();
        replication.startBoth();
        replication.awaitCaughtUp();
        LOG.info("initial copy caught up in {} ms", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs));
        assertFidelity(Phase.COPY);
    }

    @Test
    @Order(2)
    void streamingUnderConcurrentLoadCarriesEveryValue() throws Exception {
        replication.checkAlive();
        long startNs = System.nanoTime();
        ConcurrentLinkedQueue<Map.Entry<String, List<String>>> blocks =
                new ConcurrentLinkedQueue<>(HostileSql.blocks("stream.sql").entrySet());
        ExecutorService sessions = Executors.newFixedThreadPool(BLOCK_SESSIONS + COUNTER_SESSIONS);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < BLOCK_SESSIONS; i++) {
                running.add(sessions.submit(() -> {
                    for (Map.Entry<String, List<String>> block; (block = blocks.poll()) != null; ) {
                        HostileSql.run(replication.primary(), block.getValue());
                    }
                    return null;
                }));
            }
            for (int i = 0; i < COUNTER_SESSIONS; i++) {
                int session = i;
                running.add(sessions.submit(() -> {
                    countConcurrently(session);
                    return null;
                }));
            }
            for (Future<?> session : running) {
                session.get(120, TimeUnit.SECONDS);
            }
        } finally {
            sessions.shutdownNow();
        }
        HostileSql.run(replication.primary(), HostileSql.statements("via-root.sql"));
        replication.awaitCaughtUp();
        LOG.info("streaming phase caught up in {} ms", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs));
        assertThat(Replication.queryLong(replication.primary(), "SELECT sum(n) FROM s_counter"))
                .as("every counter increment committed").isEqualTo(2L * COUNTER_SESSIONS * COUNTER_TRANSACTIONS + 1000);
        assertFidelity(Phase.STREAM);
    }

    /**
     * What stops the engine for good, each case on a stream of its own (a new slot, no copy): the shipper must exit
     * naming the value, and a restart must stop again, never skip it.
     */
    @Test
    @Order(3)
    void aTimetzOffsetWithSecondsStopsTheStreamClearly() throws Exception {
        restartStreamingOnANewSlot();
        HostileSql.run(replication.primary(), HostileSql.statements("timetz-offset-seconds.sql"));
        assertStops(replication.shipper(), "streaming", DebeziumLosses.TIMETZ_OFFSET_SECONDS_STOP);
        replication.startShipper();
        assertStops(replication.shipper(), "streaming, after a restart", DebeziumLosses.TIMETZ_OFFSET_SECONDS_STOP);
        replication.primary().execute("DELETE FROM t_time WHERE id = 1000");
    }

    @Test
    @Order(4)
    void columnsWhoseNamesDifferOnlyByCaseStopCaptureClearly() throws Exception {
        restartStreamingOnANewSlot();
        HostileSql.run(replication.primary(), HostileSql.statements("case-twins.sql"));
        assertStops(replication.shipper(), "streaming", DebeziumLosses.CASE_TWINS_STOP);
        replication.startShipper();
        assertStops(replication.shipper(), "a start", DebeziumLosses.CASE_TWINS_STOP);
        replication.primary().execute("DROP TABLE case_twins");
    }

    @Test
    @Order(5)
    void anIntervalAtTheTypesLimitsStopsCaptureClearly() throws Exception {
        restartStreamingOnANewSlot();
        HostileSql.run(replication.primary(), HostileSql.statements("interval-limits.sql"));
        assertStops(replication.shipper(), "streaming", DebeziumLosses.INTERVAL_LIMITS_STOP);
        replication.startShipper();
        assertStops(replication.shipper(), "streaming, after a restart", DebeziumLosses.INTERVAL_LIMITS_STOP);
        assertThat(Replication.queryLong(replication.replica(), "SELECT count(*) FROM t_interval_limits"))
                .as("nothing of the stopped transaction applied").isZero();
        dropSlot();
        replication.shipperSetting("snapshot.mode", "initial");
        replication.startShipper();
        assertStops(replication.shipper(), "an initial copy", DebeziumLosses.INTERVAL_LIMITS_STOP);
        assertThat(replication.applier().isAlive()).as("the applier waits, it does not fail").isTrue();
    }

    /** Stops the shipper if it runs, drops its slot and starts it streaming from a new one. */
    void restartStreamingOnANewSlot() throws Exception {
        if (replication.shipper().isAlive()) {
            replication.shipper().stop(Duration.ofSeconds(20));
        }
        dropSlot();
        replication.shipperSetting("snapshot.mode", "no_data");
        replication.startShipper();
        replication.awaitSlotActive();
    }

    private void dropSlot() {
        replication.primary().execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = 'rdmarepl'");
    }

    private static void assertStops(RoleProcess shipper, String when, String message) {
        OptionalInt exit = shipper.awaitExit(Duration.ofSeconds(90));
        assertThat(exit).as("%s: the shipper stops\n%s", when, shipper.tail()).isPresent();
        assertThat(exit.getAsInt()).as("%s: exit code", when).isNotZero();
        assertThat(shipper.log()).as("%s: the shipper says why", when).contains(message);
    }

    /** Session {@code session} adds 1 to two counters per transaction, lower id first (no deadlock), many times. */
    private void countConcurrently(int session) throws SQLException {
        try (Connection c = replication.primary().connect("postgres"); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            ThreadLocalRandom random = ThreadLocalRandom.current();
            for (int i = 0; i < COUNTER_TRANSACTIONS; i++) {
                int a = 1 + random.nextInt(8);
                int b = 1 + random.nextInt(8);
                s.execute("UPDATE s_counter SET n = n + 1, last_session = " + session + " WHERE id = " + Math.min(a, b));
                s.execute("UPDATE s_counter SET n = n + 1, last_session = " + session + " WHERE id = " + Math.max(a, b));
                c.commit();
            }
        }
    }

    /**
     * The replica equals the primary except for exactly the engine's known losses in this phase. Sequences are
     * compared once the shipper read them after the workload and the replica applied that reading.
     */
    void assertFidelity(Phase phase) throws Exception {
        replication.awaitSequencesCaughtUp();
        ComparisonReport report = ReplicaComparison.between(replication.primary(), replication.replica())
                .schemas(SCHEMAS).sequences(true).run();
        Set<String> expected = FidelityLoss.of(engine(), phase).stream().map(FidelityLoss::id)
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> found = new TreeSet<>();
        List<Difference> unexpected = new ArrayList<>();
        for (Difference d : report.differences()) {
            String id = d.relation() + "|" + d.key() + "|" + d.column();
            if (d.kind() == Difference.Kind.COLUMN_DIFFERS && expected.contains(id)) {
                found.add(id);
            } else {
                unexpected.add(d);
            }
        }
        Set<String> gone = new TreeSet<>(expected);
        gone.removeAll(found);
        LOG.info("{} phase, engine {}: {} tables, {} differences, {} of {} known losses, {} unexpected", phase, engine(),
                report.tables().size(), report.differenceCount(), found.size(), expected.size(), unexpected.size());
        assertThat(report.differenceCount()).as("every difference listed").isEqualTo(report.differences().size());
        assertThat(report.tables()).as("tables compared").hasSizeGreaterThan(30);
        assertThat(unexpected).as("%s: differences that are no known loss of the %s engine (defects)\n%s", phase, engine(),
                unexpected.stream().map(Object::toString).collect(Collectors.joining("\n"))).isEmpty();
        assertThat(gone).as("%s: known losses of the %s engine no longer seen: remove them from the list and docs/data-fidelity.md",
                phase, engine()).isEmpty();
    }
}
