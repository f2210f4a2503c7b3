package io.rdmarepl.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;

import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresPairExtension;
import io.rdmarepl.testsupport.PostgresServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A writer keeps writing through a failover with {@link FailoverDataSource#inTransaction}: pga is fenced while the
 * topology still names it (the coordinator is slower than the clients), then the topology names pgb.
 * <pre>
 *   writer --inTransaction(INSERT id; SELECT inet_server_port())--> pga (epoch 1) | fenced | pgb (epoch 2)
 * </pre>
 * Each write returns the port of the server it committed on. The check: every acknowledged id is on the server
 * that acknowledged it, no server holds an id that was never acknowledged, and nothing is acknowledged by pga after
 * pgb acknowledged its first write. The servers do not replicate to each other, so each table holds exactly what
 * was committed there.
 */
@Timeout(60)
class WriterThroughFailoverIT {
    private static final Logger LOG = LoggerFactory.getLogger(WriterThroughFailoverIT.class);
    private static final Duration DEADLINE = Duration.ofSeconds(15);
    private static final Duration WRITE_BUDGET = Duration.ofSeconds(10);
    private static final int WRITES_PER_PRIMARY = 100;

    /** Both servers start at once, before the first test; the coordinator calls them pga and pgb. */
    @RegisterExtension
    static final PostgresPairExtension POSTGRES = new PostgresPairExtension(Durability.FAST);

    private static PostgresServer pga;
    private static PostgresServer pgb;

    /** One acknowledged write: inTransaction returned. */
    private record Ack(long id, int port, long startNs, long endNs) {
    }

    @BeforeAll
    static void createTables() {
        pga = POSTGRES.primary();
        pgb = POSTGRES.replica();
        for (final PostgresServer server : List.of(pga, pgb)) {
            server.execute("CREATE TABLE writes (id bigint PRIMARY KEY)");
        }
    }

    @Test
    void shouldLoseNoAcknowledgedWriteWhenThePrimaryIsFencedAndReplaced() throws Exception {
        try (TopologyServer coordinator = TopologyServer.start()) {
            coordinator.publish(1, "HEALTHY", member(pga, "PRIMARY"),
                List.of(member(pga, "PRIMARY"), member(pgb, "STANDBY")));
            try (FailoverDataSource dataSource = new FailoverDataSource(FailoverDataSourceConfig.builder()
                .coordinatorUrl(coordinator.url().toString())
                .user(PostgresServer.SUPERUSER)
                .applicationName("writer-test")
                .poolSize(4)
                .connectionTimeout(Duration.ofSeconds(5))
                .retiredPoolGrace(Duration.ofMillis(500))
                .build())) {
                final Writer writer = new Writer(dataSource);
                writer.start();
                Await.until(WRITES_PER_PRIMARY + " writes acknowledged by pga", DEADLINE,
                    () -> writer.acknowledgedOn(pga.port()) >= WRITES_PER_PRIMARY || writer.failure != null);

                final long fenceNs = System.nanoTime();
                Fencing.fence(pga);
                final long publishNs = System.nanoTime();
                coordinator.publish(2, "HEALTHY", member(pgb, "PRIMARY"),
                    List.of(member(pgb, "PRIMARY"), member(pga, "FENCED")));
                Await.until(WRITES_PER_PRIMARY + " writes acknowledged by pgb", DEADLINE,
                    () -> writer.acknowledgedOn(pgb.port()) >= WRITES_PER_PRIMARY || writer.failure != null);
                writer.stopAndJoin();

                assertThat((Throwable) writer.failure).as("the error that stopped the writer").isNull();
                checkNoAcknowledgedWriteLost(writer.acks);
                report(writer.acks, fenceNs, publishNs, dataSource.status());
            }
        }
    }

    private static void checkNoAcknowledgedWriteLost(final ConcurrentLinkedQueue<Ack> acks) throws SQLException {
        final Set<Long> onPga = ids(pga);
        final Set<Long> onPgb = ids(pgb);
        final Set<Long> acknowledged = acks.stream().map(Ack::id).collect(Collectors.toSet());
        for (final Ack ack : acks) {
            assertThat(ack.port()).as("port of the server that acknowledged id %d", ack.id())
                .isIn(pga.port(), pgb.port());
            assertThat(ack.port() == pga.port() ? onPga : onPgb)
                .as("ids on the server that acknowledged id %d", ack.id())
                .contains(ack.id());
        }
        assertThat(acknowledged).as("acknowledged ids").containsAll(onPga).containsAll(onPgb);
        final long lastOnPga = acks.stream().filter((a) -> a.port() == pga.port()).mapToLong(Ack::id).max()
            .orElseThrow();
        final long firstOnPgb = acks.stream().filter((a) -> a.port() == pgb.port()).mapToLong(Ack::id).min()
            .orElseThrow();
        assertThat(lastOnPga).as("last id acknowledged by pga, before the first by pgb").isLessThan(firstOnPgb);
    }

    /**
     * The error window as a client sees it: the longest inTransaction call, and the time without any acknowledged
     * write around the switch. Logged, not asserted: it depends on the machine.
     */
    private static void report(final ConcurrentLinkedQueue<Ack> acks, final long fenceNs, final long publishNs,
        final FailoverStatus status) throws SQLException {
        final Ack lastOnPga = acks.stream().filter((a) -> a.port() == pga.port())
            .max((x, y) -> Long.compare(x.endNs(), y.endNs())).orElseThrow();
        final Ack firstOnPgb = acks.stream().filter((a) -> a.port() == pgb.port())
            .min((x, y) -> Long.compare(x.endNs(), y.endNs())).orElseThrow();
        // calls that ended after the fencing began: the first calls also open the pool, which is not the failover
        final long longestCallMs = acks.stream().filter((a) -> a.endNs() > fenceNs)
            .mapToLong((a) -> a.endNs() - a.startNs()).max().orElseThrow() / 1_000_000;
        final Set<Long> onBoth = ids(pga);
        onBoth.retainAll(ids(pgb));
        LOG.info("failover error window: no write acknowledged for {} ms (last on pga to first on pgb); " +
                "longest inTransaction call through the failover {} ms; fencing pga took {} ms; first write on " +
                "pgb {} ms after the topology named it; {} writes acknowledged, {} failed attempts retried, " +
                "{} ids on both servers (at-least-once), failovers seen {}",
            (firstOnPgb.endNs() - lastOnPga.endNs()) / 1_000_000, longestCallMs, (publishNs - fenceNs) / 1_000_000,
            (firstOnPgb.endNs() - publishNs) / 1_000_000, acks.size(), status.failedAttempts(), onBoth.size(),
            status.failoversSeen());
        assertThat(status.failoversSeen()).isEqualTo(1);
        assertThat(status.failedAttempts()).as("attempts that met the fenced pga").isPositive();
    }

    private static Set<Long> ids(final PostgresServer server) throws SQLException {
        final Set<Long> ids = new HashSet<>();
        try (Connection connection = server.connect("postgres");
            Statement statement = connection.createStatement();
            ResultSet rows = statement.executeQuery("SELECT id FROM writes")) {
            while (rows.next()) {
                ids.add(rows.getLong(1));
            }
        }
        return ids;
    }

    private static Member member(final PostgresServer server, final String role) {
        // the pair's servers are named primary and replica; which one is primary is the coordinator's call
        return new Member(server == pga ? "pga" : "pgb", server.jdbcUrl("postgres"), role);
    }

    /**
     * Writes ids 1, 2, 3... one transaction each, idempotently, and records each acknowledgement.
     */
    private static final class Writer extends Thread {
        private final FailoverDataSource dataSource;
        private final ConcurrentLinkedQueue<Ack> acks = new ConcurrentLinkedQueue<>();
        private volatile boolean stopped;
        private volatile SQLException failure;

        Writer(final FailoverDataSource dataSource) {
            super("test-writer");
            setDaemon(true);
            this.dataSource = dataSource;
        }

        @Override
        public void run() {
            for (long id = 1; !stopped; id++) {
                final long writeId = id;
                final long startNs = System.nanoTime();
                try {
                    final int port = dataSource.inTransaction(
                        (connection) -> insert(connection, writeId), WRITE_BUDGET);
                    acks.add(new Ack(writeId, port, startNs, System.nanoTime()));
                } catch (final SQLException ex) {
                    failure = ex;
                    return;
                }
            }
        }

        private static int insert(final Connection connection, final long id) throws SQLException {
            try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO writes (id) VALUES (?) ON CONFLICT (id) DO NOTHING")) {
                insert.setLong(1, id);
                insert.executeUpdate();
            }
            return PrimaryProbe.serverPort(connection);
        }

        long acknowledgedOn(final int port) {
            return acks.stream().filter((a) -> a.port() == port).count();
        }

        void stopAndJoin() throws InterruptedException {
            stopped = true;
            join(DEADLINE.toMillis());
        }
    }
}
