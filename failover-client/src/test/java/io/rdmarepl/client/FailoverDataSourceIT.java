package io.rdmarepl.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresPairExtension;
import io.rdmarepl.testsupport.PostgresServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where connections go: two real PostgreSQL servers, pga and pgb, and a real HTTP server serving the coordinator's
 * topology contract.
 */
@Timeout(60)
class FailoverDataSourceIT {
    private static final Logger LOG = LoggerFactory.getLogger(FailoverDataSourceIT.class);
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    /** Both servers start at once, before the first test; the coordinator calls them pga and pgb. */
    @RegisterExtension
    static final PostgresPairExtension POSTGRES = new PostgresPairExtension(Durability.FAST);

    private static PostgresServer pga;
    private static PostgresServer pgb;

    private TopologyServer coordinator;
    private FailoverDataSource dataSource;

    @BeforeAll
    static void nameServers() {
        pga = POSTGRES.primary();
        pgb = POSTGRES.replica();
    }

    @BeforeEach
    void startCoordinator() {
        Fencing.unfence(pga);
        Fencing.unfence(pgb);
        coordinator = TopologyServer.start();
    }

    @AfterEach
    void stop() {
        if (dataSource != null) {
            dataSource.close();
        }
        coordinator.close();
    }

    @Test
    void shouldHandOutConnectionsToTheTopologysPrimary() throws SQLException {
        publishPrimary(1, pga, pgb);
        dataSource = open("route-test", Duration.ofSeconds(2));

        for (int i = 0; i < 20; i++) {
            try (Connection connection = dataSource.getConnection()) {
                assertThat(PrimaryProbe.serverPort(connection)).isEqualTo(pga.port());
            }
        }
        final FailoverStatus status = dataSource.status();
        assertThat(status.primaryName()).isEqualTo("pga");
        assertThat(status.primaryJdbcUrl()).isEqualTo(pga.jdbcUrl("postgres"));
        assertThat(status.epoch()).isEqualTo(1);
        assertThat(status.phase()).isEqualTo("HEALTHY");
        assertThat(status.failoversSeen()).isZero();
    }

    @Test
    void shouldMoveNewConnectionsToTheNewPrimaryAndNeverBackToTheFencedOne() throws Exception {
        publishPrimary(1, pga, pgb);
        dataSource = open("switch-test", Duration.ofSeconds(2));
        final AtomicLong switchSeenNs = new AtomicLong();
        dataSource.addTopologyListener((previous, next) -> {
            if (next.primary() != null && next.primary().name().equals("pgb")) {
                switchSeenNs.compareAndSet(0, System.nanoTime());
            }
        });
        final ConcurrentLinkedQueue<long[]> borrows = new ConcurrentLinkedQueue<>();
        final AtomicBoolean stop = new AtomicBoolean();
        final List<Thread> borrowers = List.of(borrower(borrows, stop), borrower(borrows, stop));
        borrowers.forEach(Thread::start);
        Await.until("20 connections went to pga", DEADLINE, () -> count(borrows, pga.port(), 0) >= 20);

        // the failover, as the coordinator runs it: no primary, fence pga, promote pgb
        coordinator.publish(1, "FENCING", null, List.of(member(pga, "PRIMARY"), member(pgb, "STANDBY")));
        Fencing.fence(pga);
        final long publishNs = System.nanoTime();
        coordinator.publish(2, "HEALTHY", member(pgb, "PRIMARY"), List.of(member(pgb, "PRIMARY"),
            member(pga, "FENCED")));
        final long firstOnPgbMs = Await.until("a new connection goes to pgb", DEADLINE,
            () -> count(borrows, pgb.port(), publishNs) >= 1);
        Await.until("50 connections went to pgb", DEADLINE, () -> count(borrows, pgb.port(), publishNs) >= 50);
        stop.set(true);
        for (final Thread thread : borrowers) {
            thread.join(DEADLINE.toMillis());
        }

        final long switchedNs = switchSeenNs.get();
        assertThat(switchedNs).isPositive();
        assertThat(borrows.stream().filter((b) -> b[0] > switchedNs))
            .as("borrows that started after the data source switched to pgb")
            .isNotEmpty()
            .allSatisfy((b) -> assertThat(b[1]).as("server port").isEqualTo(pgb.port()));
        final FailoverStatus status = dataSource.status();
        assertThat(status.primaryName()).isEqualTo("pgb");
        assertThat(status.epoch()).isEqualTo(2);
        assertThat(status.failoversSeen()).isEqualTo(1);
        LOG.info("switch: data source followed the topology {} ms after it was published; first new connection " +
            "on pgb after {} ms; {} borrows before, {} after", (switchedNs - publishNs) / 1_000_000, firstOnPgbMs,
            borrows.stream().filter((b) -> b[0] <= switchedNs).count(),
            borrows.stream().filter((b) -> b[0] > switchedNs).count());
    }

    @Test
    void shouldCloseTheReplacedPrimarysConnectionsAfterTheGrace() throws SQLException {
        publishPrimary(1, pga, pgb);
        dataSource = open("close-test", Duration.ofSeconds(2));
        final Connection held = dataSource.getConnection();
        assertThat(PrimaryProbe.serverPort(held)).isEqualTo(pga.port());
        final List<Integer> poolSessions = Fencing.sessionPids(pga, "close-test");

        // a planned switchover: pga still takes writes, yet nothing may use it any more
        publishPrimary(2, pgb, pga);

        Await.until("pgb is the primary", DEADLINE, () -> "pgb".equals(dataSource.status().primaryName()));
        try (Connection connection = dataSource.getConnection()) {
            assertThat(PrimaryProbe.serverPort(connection)).isEqualTo(pgb.port());
        }
        // pga, a standby now, gets the connections opened ahead: new sessions, not those of the replaced pool
        final long closedMs = Await.until("no session of the replaced pool left on pga", DEADLINE,
            () -> Fencing.sessionPids(pga, "close-test").stream().noneMatch(poolSessions::contains));
        assertThatThrownBy(() -> PrimaryProbe.serverPort(held))
            .isInstanceOfSatisfying(SQLException.class,
                (ex) -> assertThat(FailoverDataSource.isFailoverError(ex)).isTrue());
        held.close();
        LOG.info("switchover: pga had no session of the data source {} ms after pgb served one (grace {} ms)",
            closedMs,
            dataSource.config().retiredPoolGrace().toMillis());
    }

    @Test
    void shouldWaitForAPrimaryWhileTheFailoverRuns() throws Exception {
        publishPrimary(1, pga, pgb);
        dataSource = open("wait-test", Duration.ofSeconds(5));
        try (Connection connection = dataSource.getConnection()) {
            assertThat(PrimaryProbe.serverPort(connection)).isEqualTo(pga.port());
        }
        coordinator.publish(1, "PROMOTING", null, List.of(member(pga, "FENCED"), member(pgb, "STANDBY")));
        Await.until("the data source knows there is no primary", DEADLINE,
            () -> dataSource.status().primaryName() == null);

        final CompletableFuture<Integer> port = CompletableFuture.supplyAsync(() -> {
            try (Connection connection = dataSource.getConnection()) {
                return PrimaryProbe.serverPort(connection);
            } catch (final SQLException ex) {
                throw new IllegalStateException(ex);
            }
        });
        assertThatThrownBy(() -> port.get(300, TimeUnit.MILLISECONDS))
            .as("getConnection still waits 300 ms into the failover")
            .isInstanceOf(TimeoutException.class);
        publishPrimary(2, pgb, pga);

        assertThat(port.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(pgb.port());
    }

    @Test
    void shouldHandOutTheConnectionsOpenedAheadToAPromotedStandbyWritable() throws Exception {
        // pgb refuses client writes as a standby does (the applier sets this on its database until promotion)
        pgb.execute("ALTER DATABASE postgres SET default_transaction_read_only = on");
        try {
            publishPrimary(1, pga, pgb);
            dataSource = open("warm-test", Duration.ofSeconds(2));
            Await.until("2 connections opened ahead to standby pgb", DEADLINE,
                () -> Fencing.sessions(pgb, "warm-test") == 2);
            final List<Integer> openedAhead = Fencing.sessionPids(pgb, "warm-test");
            try (Connection connection = dataSource.getConnection()) {
                assertThat(PrimaryProbe.serverPort(connection)).as("nothing goes to a standby").isEqualTo(pga.port());
            }

            // the failover, as the coordinator publishes it: no primary while it fences pga and drains pgb, pgb
            // PRIMARY in the new epoch before its applier lifts read-only, then pgb named the primary
            coordinator.publish(1, "FENCING", null, List.of(member(pga, "PRIMARY"), member(pgb, "STANDBY")));
            awaitPhase("FENCING");
            Fencing.fence(pga);
            coordinator.publish(2, "PROMOTING", null, List.of(member(pgb, "PRIMARY"), member(pga, "FENCED")));
            awaitPhase("PROMOTING");
            writableDefault(pgb);
            coordinator.publish(2, "PROMOTED", member(pgb, "PRIMARY"),
                List.of(member(pgb, "PRIMARY"), member(pga, "FENCED")));
            Await.until("the data source follows pgb", DEADLINE,
                () -> "pgb".equals(dataSource.status().primaryName()));

            try (Connection connection = dataSource.getConnection();
                 Statement statement = connection.createStatement()) {
                assertThat(PrimaryProbe.serverPort(connection)).isEqualTo(pgb.port());
                try (ResultSet rs = statement.executeQuery(
                    "SELECT pg_backend_pid(), current_setting('transaction_read_only')")) {
                    rs.next();
                    assertThat(openedAhead).as("sessions opened before the promotion").contains(rs.getInt(1));
                    assertThat(rs.getString(2)).as("transaction_read_only").isEqualTo("off");
                }
                statement.execute("CREATE TEMPORARY TABLE written (id int); INSERT INTO written VALUES (1)");
            }

            // pgb fenced in turn, this client cut off from the coordinator (it still names pgb): the sessions the
            // pool opens now must follow the fence, not the writable setting the sessions opened ahead were given
            Fencing.fence(pgb);
            Await.until("a new session on the fenced pgb is read-only", DEADLINE, () -> readOnlySession(dataSource));
            Await.until("no connection kept to the fenced pga", DEADLINE,
                () -> Fencing.sessions(pga, "warm-test") == 0);
        } finally {
            writableDefault(pgb);
        }
    }

    /**
     * HikariCP checks a connection idle for more than half a second before it hands it out: the warm pool's are checked
     * while the coordinator promotes, so one found dead is replaced then, not on the first transaction after it.
     */
    @Test
    void shouldCheckTheConnectionsOpenedAheadWhileTheFailoverRuns() throws Exception {
        publishPrimary(1, pga, pgb);
        dataSource = open("freshen-test", Duration.ofSeconds(2));
        Await.until("2 connections opened ahead to standby pgb, idle for more than HikariCP's half second", DEADLINE,
            () -> Fencing.sessionsIdleFor(pgb, "freshen-test", 600) == 2);
        final List<Integer> openedAhead = Fencing.sessionPids(pgb, "freshen-test");
        pgb.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'freshen-test'");
        Await.until("the sessions opened ahead are gone", DEADLINE, () -> Fencing.sessions(pgb, "freshen-test") == 0);

        coordinator.publish(1, "FENCING", null, List.of(member(pga, "PRIMARY"), member(pgb, "STANDBY")));
        Await.until("2 new connections to pgb before any promotion", DEADLINE, () -> {
            final List<Integer> now = Fencing.sessionPids(pgb, "freshen-test");
            return now.size() == 2 && now.stream().noneMatch(openedAhead::contains);
        });
        assertThat(dataSource.status().primaryName()).as("still no primary").isNull();
    }

    @Test
    void shouldRunSessionsAtTheConfiguredIsolationLevel() throws SQLException {
        publishPrimary(1, pga, pgb);
        dataSource = new FailoverDataSource(FailoverDataSourceConfig.builder()
            .coordinatorUrl(coordinator.url().toString()).user(PostgresServer.SUPERUSER).applicationName("iso-test")
            .transactionIsolation("TRANSACTION_SERIALIZABLE").build());
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT current_setting('transaction_isolation')")) {
            rows.next();
            assertThat(rows.getString(1)).isEqualTo("serializable");
        }
    }

    @Test
    void shouldOpenNoConnectionAheadWhenToldNotTo() throws Exception {
        publishPrimary(1, pga, pgb);
        dataSource = new FailoverDataSource(FailoverDataSourceConfig.builder()
            .coordinatorUrl(coordinator.url().toString()).user(PostgresServer.SUPERUSER).applicationName("cold-test")
            .poolSize(2).standbyConnections(0).build());
        Await.until("the pool of pga is full", DEADLINE, () -> Fencing.sessions(pga, "cold-test") == 2);
        assertThat(Fencing.sessions(pgb, "cold-test")).isZero();
    }

    private static boolean readOnlySession(final FailoverDataSource dataSource) {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT current_setting('transaction_read_only')")) {
            rows.next();
            return "on".equals(rows.getString(1));
        } catch (final SQLException ex) {
            return false; // a session the fence terminated: the pool replaces it
        }
    }

    private void awaitPhase(final String phase) {
        Await.until("the data source follows the topology in phase " + phase, DEADLINE,
            () -> phase.equals(dataSource.status().phase()));
    }

    /** What the applier does on promotion; its own session starts read-only, so the transaction says otherwise. */
    private static void writableDefault(final PostgresServer server) {
        server.execute("BEGIN READ WRITE; ALTER DATABASE postgres RESET default_transaction_read_only; COMMIT");
    }

    @Test
    void shouldNotRetryErrorsThatAreNotFailovers() throws SQLException {
        publishPrimary(1, pga, pgb);
        pga.execute("DROP TABLE IF EXISTS once; CREATE TABLE once (id int PRIMARY KEY)");
        dataSource = open("no-retry-test", Duration.ofSeconds(2));
        final SqlWork<Integer> insertOne = (connection) -> {
            try (Statement statement = connection.createStatement()) {
                return statement.executeUpdate("INSERT INTO once VALUES (1)");
            }
        };
        assertThat(dataSource.inTransaction(insertOne, DEADLINE)).isEqualTo(1);

        final long startNs = System.nanoTime();
        assertThatThrownBy(() -> dataSource.inTransaction(insertOne, DEADLINE))
            .isInstanceOfSatisfying(SQLException.class, (ex) -> assertThat(ex.getSQLState()).isEqualTo("23505"));

        assertThat(System.nanoTime() - startNs).as("ns, thrown without retrying")
            .isLessThan(TimeUnit.SECONDS.toNanos(2));
        assertThat(dataSource.status().failedAttempts()).isZero();
    }

    private Thread borrower(final ConcurrentLinkedQueue<long[]> borrows, final AtomicBoolean stop) {
        final Thread thread = new Thread(() -> {
            while (!stop.get()) {
                final long startNs = System.nanoTime();
                try (Connection connection = dataSource.getConnection()) {
                    borrows.add(new long[] {startNs, PrimaryProbe.serverPort(connection)});
                } catch (final SQLException ex) {
                    // a connection borrowed before the switch died with pga: expected, and not a hand-out after it
                    borrows.add(new long[] {startNs, -1});
                }
            }
        }, "test-borrower");
        thread.setDaemon(true);
        return thread;
    }

    private static long count(final ConcurrentLinkedQueue<long[]> borrows, final int port, final long afterNs) {
        return borrows.stream().filter((b) -> b[1] == port && b[0] > afterNs).count();
    }

    private void publishPrimary(final long epoch, final PostgresServer primary, final PostgresServer standby) {
        coordinator.publish(epoch, "HEALTHY", member(primary, "PRIMARY"),
            List.of(member(primary, "PRIMARY"), member(standby, "STANDBY")));
    }

    private static Member member(final PostgresServer server, final String role) {
        // the pair's servers are named primary and replica; which one is primary is the coordinator's call
        return new Member(server == pga ? "pga" : "pgb", server.jdbcUrl("postgres"), role);
    }

    private FailoverDataSource open(final String applicationName, final Duration connectionTimeout) {
        return new FailoverDataSource(FailoverDataSourceConfig.builder()
            .coordinatorUrl(coordinator.url().toString())
            .user(PostgresServer.SUPERUSER)
            .applicationName(applicationName)
            .poolSize(4)
            .connectionTimeout(connectionTimeout)
            .retiredPoolGrace(Duration.ofMillis(300))
            .build());
    }
}
