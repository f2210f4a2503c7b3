package io.rdmarepl.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.rdmarepl.testsupport.Await;
import java.io.IOException;
import java.net.URI;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

import ch.qos.logback.classic.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What getConnection and inTransaction do when there is no primary to go to; no database needed.
 */
@Timeout(20)
class FailoverDataSourceTest {
    private static final Duration CONNECTION_TIMEOUT = Duration.ofMillis(400);
    private static final Member PGA = new Member("pga", "jdbc:postgresql://10.0.0.1:5432/app", "FENCED");

    @Test
    void shouldWaitForAPrimaryThenFailNamingTheCoordinator() {
        try (TopologyServer coordinator = TopologyServer.start()) {
            coordinator.publish(4, "PROMOTING", null, List.of(PGA));
            try (FailoverDataSource dataSource = new FailoverDataSource(config(coordinator.url()))) {
                Await.until("the topology arrives", Duration.ofSeconds(5), () -> dataSource.topology().isPresent());

                final long startNs = System.nanoTime();
                final SQLException error = catchThrowableOfType(SQLException.class, dataSource::getConnection);
                final long waitedMs = (System.nanoTime() - startNs) / 1_000_000;

                assertThat(waitedMs).isGreaterThanOrEqualTo(CONNECTION_TIMEOUT.toMillis());
                assertThat(error.getMessage()).startsWith("no primary known within 400 ms: latest topology v1 epoch 4 " +
                    "PROMOTING no primary (coordinators [" + coordinator.url() + "], last answer from " +
                    coordinator.url());
                assertThat(error.getSQLState()).isEqualTo("08001");
                assertThat(FailoverDataSource.isFailoverError(error)).isTrue();
            }
        }
    }

    @Test
    void shouldSayNoCoordinatorAnswersWithoutStackTraces() throws IOException {
        final URI dead = TopologyClientTest.deadUrl();
        try (LogCapture outageLog = new LogCapture(CoordinatorOutage.class, Level.INFO);
            LogCapture clientLog = new LogCapture(TopologyClient.class, Level.INFO);
            FailoverDataSource dataSource = new FailoverDataSource(config(dead))) {

            final SQLException error = catchThrowableOfType(SQLException.class, dataSource::getConnection);

            assertThat(error.getMessage()).startsWith("no primary known within 400 ms: no topology received yet " +
                "(coordinators [" + dead + "] not answering for ")
                .contains(dead + ": cannot connect (ConnectException: Connection refused)");
            assertThat(outageLog.events(Level.WARN)).singleElement()
                .satisfies((warning) -> assertThat(warning.getThrowableProxy()).isNull());
            assertThat(clientLog.events(Level.ERROR)).isEmpty();
            assertThat(dataSource.status().primaryName()).isNull();
            assertThat(dataSource.status().epoch()).isEqualTo(-1);
        }
    }

    @Test
    void shouldHandOutNoConnectionOnATopologyNoCoordinatorHoldingTheStateConfirms() throws IOException {
        // a minority coordinator that lost ZooKeeper 5 s ago still names pgz: a primary that may have been replaced
        final String deadJdbcUrl = "jdbc:postgresql://127.0.0.1:" + TopologyClientTest.deadUrl().getPort() + "/app";
        final Member pgz = new Member("pgz", deadJdbcUrl, "PRIMARY");
        try (TopologyServer coordinator = TopologyServer.start()) {
            coordinator.publish(TopologyServer.document(1, "HEALTHY", pgz, List.of(pgz)).put("leader", false)
                .put("age_ms", 5_000));
            try (FailoverDataSource dataSource = new FailoverDataSource(FailoverDataSourceConfig.builder()
                .coordinatorUrl(coordinator.url().toString()).user("app").connectionTimeout(CONNECTION_TIMEOUT)
                .topologyMaxAge(Duration.ofSeconds(1)).build())) {
                Await.until("the topology arrives", Duration.ofSeconds(5), () -> dataSource.topology().isPresent());

                final SQLException error = catchThrowableOfType(SQLException.class, dataSource::getConnection);

                assertThat(error.getMessage()).startsWith("no primary known within 400 ms: topology never confirmed " +
                    "(bound 1000 ms), no coordinator holding the cluster's state confirmed it since")
                    .contains("answers from a state 5000 ms old");
                assertThat(error.getSQLState()).isEqualTo("08001");
            }
        }
    }

    @Test
    void shouldGiveUpATransactionWhenTheBudgetIsSpent() {
        try (TopologyServer coordinator = TopologyServer.start()) {
            coordinator.publish(4, "FENCING", null, List.of(PGA));
            try (FailoverDataSource dataSource = new FailoverDataSource(config(coordinator.url()))) {

                final SQLException error = catchThrowableOfType(SQLException.class,
                    () -> dataSource.inTransaction((connection) -> 1, Duration.ofMillis(600)));

                assertThat(error.getMessage()).startsWith("transaction gave up after ")
                    .contains("(budget 600 ms); last failure: no primary known within 400 ms");
                assertThat(error.getSQLState()).isEqualTo("08001");
                assertThat(dataSource.status().failedAttempts()).isGreaterThanOrEqualTo(1);
            }
        }
    }

    @Test
    void shouldNameThePrimaryItCannotReach() throws IOException {
        final String deadJdbcUrl = "jdbc:postgresql://127.0.0.1:" + TopologyClientTest.deadUrl().getPort() + "/app";
        try (TopologyServer coordinator = TopologyServer.start()) {
            final Member pgz = new Member("pgz", deadJdbcUrl, "PRIMARY");
            coordinator.publish(1, "HEALTHY", pgz, List.of(pgz));
            try (FailoverDataSource dataSource = new FailoverDataSource(config(coordinator.url()))) {

                final SQLException error = catchThrowableOfType(SQLException.class, dataSource::getConnection);

                assertThat(error.getMessage())
                    .startsWith("no connection to primary pgz (" + deadJdbcUrl + ") of epoch 1 within 400 ms: ")
                    .contains("refused", "coordinators [" + coordinator.url() + "]");
                assertThat(error.getSQLState()).isEqualTo("08001");
            }
        }
    }

    @Test
    void shouldHandOutNothingWhenThePrimarysUrlIsUnusable() {
        try (TopologyServer coordinator = TopologyServer.start();
            LogCapture log = new LogCapture(PoolSwitch.class, Level.INFO)) {
            final Member pgx = new Member("pgx", "jdbc:mysql://10.0.0.9/app", "PRIMARY");
            coordinator.publish(1, "HEALTHY", pgx, List.of(pgx));
            try (FailoverDataSource dataSource = new FailoverDataSource(config(coordinator.url()))) {

                final SQLException error = catchThrowableOfType(SQLException.class, dataSource::getConnection);

                assertThat(error.getMessage()).startsWith("no primary known within 400 ms: latest topology v1 " +
                    "epoch 1 HEALTHY primary pgx (coordinators [")
                    .contains("; cannot open a pool to primary pgx (jdbc:mysql://10.0.0.9/app): ");
                assertThat(log.events(Level.ERROR)).singleElement()
                    .satisfies((e) -> assertThat(e.getThrowableProxy()).isNull());
            }
        }
    }

    @Test
    void shouldRefuseCredentialsPerCall() {
        try (TopologyServer coordinator = TopologyServer.start();
            FailoverDataSource dataSource = new FailoverDataSource(config(coordinator.url()))) {
            assertThat(catchThrowableOfType(SQLException.class, () -> dataSource.getConnection("other", "pw"))
                .getMessage()).isEqualTo("a failover data source connects as its configured user (app) only");
        }
    }

    private static FailoverDataSourceConfig config(final URI coordinator) {
        return FailoverDataSourceConfig.builder()
            .coordinatorUrl(coordinator.toString())
            .user("app")
            .connectionTimeout(CONNECTION_TIMEOUT)
            .coordinatorConnectTimeout(Duration.ofMillis(200))
            .build();
    }
}
