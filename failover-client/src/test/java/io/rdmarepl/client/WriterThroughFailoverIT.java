package io.rdmarepl.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresPairExtension;
import io.rdmarepl.testsupport.PostgresServer;
import io.rdmarepl.testsupport.history.Ack;
import io.rdmarepl.testsupport.history.ClientWriter;
import io.rdmarepl.testsupport.history.WriteHistory;
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
 *   writer --inTransaction(INSERT id; SELECT inet_server_addr(), inet_server_port())--> pga (epoch 1) | fenced | pgb (epoch 2)
 * </pre>
 * The writer is test-support's {@link ClientWriter}: each write returns the server it committed on. The check: every acknowledged id is on the server
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

    @BeforeAll
    static void createTables() {
        pga = POSTGRES.primary();
        pgb = POSTGRES.replica();
        for (final PostgresServer server : List.of(pga, pgb)) {
            server.execute(ClientWriter.SCHEMA);
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
                // ids 1, 2, 3... one transaction each, idempotently, back to back
                final ClientWriter writer = ClientWriter.to((work) -> dataSource.inTransaction(work::run, WRITE_BUDGET))
                    .name("test-writer").interval(Duration.ZERO).start();
                final WriteHistory acks = writer.history();
                Await.until(WRITES_PER_PRIMARY + " writes acknowledged by pga (or a failed one)", DEADLINE,
                    () -> acks.count(ClientWriter.member(pga)) >= WRITES_PER_PRIMARY || writer.failures() > 0);

                final long fenceNs = System.nanoTime();
                Fencing.fence(pga);
                final long publishNs = System.nanoTime();
                coordinator.publish(2, "HEALTHY", member(pgb, "PRIMARY"),
                    List.of(member(pgb, "PRIMARY"), member(pga, "FENCED")));
                Await.until(WRITES_PER_PRIMARY + " writes acknowledged by pgb (or a failed one)", DEADLINE,
                    () -> acks.count(ClientWriter.member(pgb)) >= WRITES_PER_PRIMARY || writer.failures() > 0);
                writer.close();

                assertThat(writer.failures()).as("writes that failed within their budget; the last: %s", writer.lastFailure())
                    .isZero();
                checkNoAcknowledgedWriteLost(acks.acks());
                report(acks.acks(), fenceNs, publishNs, dataSource.status());
            }
        }
    }

    private static void checkNoAcknowledgedWriteLost(final List<Ack> acks) throws SQLException {
        final Set<Long> onPga = ClientWriter.ids(pga);
        final Set<Long> onPgb = ClientWriter.ids(pgb);
        final Set<Long> acknowledged = acks.stream().map(Ack::id).collect(Collectors.toSet());
        for (final Ack ack : acks) {
            assertThat(ack.member()).as("the server that acknowledged id %d", ack.id())
                .isIn(ClientWriter.member(pga), ClientWriter.member(pgb));
            assertThat(ack.member().equals(ClientWriter.member(pga)) ? onPga : onPgb)
                .as("ids on the server that acknowledged id %d", ack.id())
                .contains(ack.id());
        }
        assertThat(acknowledged).as("acknowledged ids").containsAll(onPga).containsAll(onPgb);
        final long lastOnPga = acks.stream().filter((a) -> a.member().equals(ClientWriter.member(pga))).mapToLong(Ack::id).max()
            .orElseThrow();
        final long firstOnPgb = acks.stream().filter((a) -> a.member().equals(ClientWriter.member(pgb))).mapToLong(Ack::id).min()
            .orElseThrow();
        assertThat(lastOnPga).as("last id acknowledged by pga, before the first by pgb").isLessThan(firstOnPgb);
    }

    /**
     * The error window as a client sees it: the longest inTransaction call, and the time without any acknowledged
     * write around the switch. Logged, not asserted: it depends on the machine.
     */
    private static void report(final List<Ack> acks, final long fenceNs, final long publishNs,
        final FailoverStatus status) throws SQLException {
        final Ack lastOnPga = acks.stream().filter((a) -> a.member().equals(ClientWriter.member(pga)))
            .max((x, y) -> Long.compare(x.acknowledgedNs(), y.acknowledgedNs())).orElseThrow();
        final Ack firstOnPgb = acks.stream().filter((a) -> a.member().equals(ClientWriter.member(pgb)))
            .min((x, y) -> Long.compare(x.acknowledgedNs(), y.acknowledgedNs())).orElseThrow();
        // calls that ended after the fencing began: the first calls also open the pool, which is not the failover
        final long longestCallMs = acks.stream().filter((a) -> a.acknowledgedNs() > fenceNs)
            .mapToLong((a) -> a.acknowledgedNs() - a.invokedNs()).max().orElseThrow() / 1_000_000;
        final Set<Long> onBoth = ClientWriter.ids(pga);
        onBoth.retainAll(ClientWriter.ids(pgb));
        LOG.info("failover error window: no write acknowledged for {} ms (last on pga to first on pgb); " +
                "longest inTransaction call through the failover {} ms; fencing pga took {} ms; first write on " +
                "pgb {} ms after the topology named it; {} writes acknowledged, {} failed attempts retried, " +
                "{} ids on both servers (at-least-once), failovers seen {}",
            (firstOnPgb.acknowledgedNs() - lastOnPga.acknowledgedNs()) / 1_000_000, longestCallMs, (publishNs - fenceNs) / 1_000_000,
            (firstOnPgb.acknowledgedNs() - publishNs) / 1_000_000, acks.size(), status.failedAttempts(), onBoth.size(),
            status.failoversSeen());
        assertThat(status.failoversSeen()).isEqualTo(1);
        assertThat(status.failedAttempts()).as("attempts that met the fenced pga").isPositive();
    }

    private static Member member(final PostgresServer server, final String role) {
        // the pair's servers are named primary and replica; which one is primary is the coordinator's call
        return new Member(server == pga ? "pga" : "pgb", server.jdbcUrl("postgres"), role);
    }
}
