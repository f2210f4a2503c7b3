package io.rdmarepl.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.PostgresServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rule: a standby takes writes only once the old primary's lease has certainly run out. The coordinator is cut off
 * from the primary (its SQL and its shipper's admin endpoint, through relays the test cuts), while a client still
 * reaches the primary directly, in a session that turned {@code default_transaction_read_only} off; no fence.command
 * is set, so nothing can confirm the fence. An operator forces the failover. The coordinator must wait out the lease:
 * the old primary's shipper, renewed by nobody once the standby drains, fences its primary, and only then is the
 * standby promoted. Checked on the clients' own clocks: the old primary acknowledged its last write before the new one
 * acknowledged its first.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class LeaseFailoverIT {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseFailoverIT.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long LEASE_MS = 2000; // the shipper's fence.lease.ms: auto, with admin.token set

    private Replication replication;
    private TcpRelay primarySql;
    private TcpRelay shipperAdmin;
    private CoordinatorHttp coordinator;

    @BeforeAll
    void startEverything() throws Exception {
        replication = Replication.create("lease-failover").coordinated();
        replication.primary().execute(ClientWriter.SCHEMA);
        replication.replica().execute(ClientWriter.SCHEMA);
        replication.startBoth();
        primarySql = new TcpRelay(replication.primary().port());
        shipperAdmin = new TcpRelay(URI.create(replication.adminBase(replication.shipper())).getPort());
        coordinator = new CoordinatorHttp(replication.adminBase(replication.startCoordinator(Map.of(
                "member.pga.jdbc.url", "jdbc:postgresql://127.0.0.1:" + primarySql.port() + "/postgres",
                "member.pga.shipper.admin", "http://127.0.0.1:" + shipperAdmin.port()))));
        coordinator.awaitPhase("HEALTHY", Duration.ofSeconds(30));
    }

    @AfterAll
    void stopEverything() {
        for (AutoCloseable closeable : new AutoCloseable[] {primarySql, shipperAdmin, replication}) {
            try {
                if (closeable != null) {
                    closeable.close();
                }
            } catch (Exception e) {
                LOG.warn("closing {}: {}", closeable, e.toString());
            }
        }
    }

    @Test
    void theStandbyTakesWritesOnlyOnceTheCutOffPrimaryFencedItself() throws Exception {
        JsonNode report;
        long requestedNs;
        try (DirectWriter old = DirectWriter.insistingOn(replication.primary(), 10_000_000);
             DirectWriter promoted = DirectWriter.waitingFor(replication.replica(), 20_000_000)) {
            old.awaitAcknowledged(50);
            primarySql.cut();
            shipperAdmin.cut();
            requestedNs = System.nanoTime();
            HttpResponse<String> answer = coordinator.post("/failover", "{\"force\":true,\"to\":\"pgb\"}", Replication.COORDINATOR_TOKEN);
            assertThat(answer.statusCode()).as("%s\n%s", answer.body(), replication.tails()).isEqualTo(200);
            report = JSON.readTree(answer.body());
            promoted.awaitAcknowledged(1);
            LOG.info("failover report: {}", report);
            LOG.info("old primary: {} acknowledged, last {} ms after the request, {} reconnects; new primary: first write {} ms after it",
                    old.acknowledged(), ms(old.lastAcknowledgedNs() - requestedNs), old.reconnects(),
                    ms(promoted.firstAcknowledgedNs() - requestedNs));

            assertThat(report.path("fence_confirmed").asBoolean(true)).as("the SQL fence could not reach pga: %s", report).isFalse();
            assertThat(report.path("lease_wait_ms").asLong()).as("waited for the lease: %s", report).isGreaterThanOrEqualTo(LEASE_MS);
            assertThat(promoted.firstAcknowledgedNs() - requestedNs).as("no write on pgb before pga's lease could have run out")
                    .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(LEASE_MS));
            assertThat(old.lastAcknowledgedNs()).as("pga acknowledged its last write before pgb its first")
                    .isLessThan(promoted.firstAcknowledgedNs());
            assertThat(old.reconnects()).as("the session that turned read-only off was ended").isPositive();
        }
        assertThat(replication.primary().show("default_transaction_read_only")).as("pga fenced itself").isEqualTo("on");
        JsonNode shipper = shipperStatus();
        assertThat(shipper.path("self_fence").path("state").asText()).as("%s", shipper).isEqualTo("done");
        assertThat(shipper.path("fenced_reason").asText()).startsWith("self-fenced: no word from a standby or the coordinator");
        assertThat(coordinator.status().path("primary").asText()).isEqualTo("pgb");
    }

    private JsonNode shipperStatus() throws Exception {
        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(replication.shipper().statusUrl()))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(answer.body());
    }

    private static long ms(long ns) {
        return TimeUnit.NANOSECONDS.toMillis(ns);
    }

    /**
     * A client writing straight to one server, one row per transaction, keeping when (System.nanoTime()) its commits
     * were acknowledged. {@link #insistingOn}: one kept session that turned read-only off, reconnecting when it is
     * ended; {@link #waitingFor}: a new session per attempt, as a client trying a standby until it takes writes.
     */
    private static final class DirectWriter implements AutoCloseable {
        private final PostgresServer server;
        private final boolean newSessionEachTime;
        private final AtomicLong nextId;
        private final Thread thread;
        private volatile boolean running = true;
        private volatile long acknowledged;
        private volatile long firstAcknowledgedNs;
        private volatile long lastAcknowledgedNs;
        private volatile long reconnects;
        private Connection kept;

        private DirectWriter(PostgresServer server, long firstId, boolean newSessionEachTime) {
            this.server = server;
            this.nextId = new AtomicLong(firstId);
            this.newSessionEachTime = newSessionEachTime;
            this.thread = new Thread(this::run, "e2e-direct-writer-" + server.port());
            thread.setDaemon(true);
            thread.start();
        }

        static DirectWriter insistingOn(PostgresServer server, long firstId) {
            return new DirectWriter(server, firstId, false);
        }

        static DirectWriter waitingFor(PostgresServer server, long firstId) {
            return new DirectWriter(server, firstId, true);
        }

        private void run() {
            while (running) {
                try {
                    Connection connection = newSessionEachTime ? server.connect("postgres") : kept();
                    try (Statement insert = connection.createStatement()) {
                        insert.execute("INSERT INTO client_writes (id) VALUES (" + nextId.getAndIncrement() + ")");
                        long now = System.nanoTime();
                        if (firstAcknowledgedNs == 0) {
                            firstAcknowledgedNs = now;
                        }
                        lastAcknowledgedNs = now;
                        acknowledged++;
                    } finally {
                        if (newSessionEachTime) {
                            connection.close();
                        }
                    }
                } catch (SQLException refused) {
                    dropIfEnded();
                }
                pace();
            }
            dropIfEnded();
        }

        private Connection kept() throws SQLException {
            if (kept == null) {
                kept = server.connect("postgres");
                if (reconnects++ == 0) {
                    try (Statement set = kept.createStatement()) {
                        set.execute("SET default_transaction_read_only = off"); // only the first session insists
                    }
                }
            }
            return kept;
        }

        private void dropIfEnded() {
            try {
                if (kept != null && (!running || !kept.isValid(1))) {
                    kept.close();
                    kept = null;
                }
            } catch (SQLException e) {
                kept = null;
            }
        }

        private void pace() {
            try {
                Thread.sleep(newSessionEachTime ? 10 : 2);
            } catch (InterruptedException e) {
                running = false;
            }
        }

        void awaitAcknowledged(long count) {
            Await.until(count + " write(s) acknowledged by port " + server.port(), Duration.ofSeconds(60), () -> acknowledged,
                    n -> n >= count);
        }

        long acknowledged() {
            return acknowledged;
        }

        long firstAcknowledgedNs() {
            return firstAcknowledgedNs;
        }

        long lastAcknowledgedNs() {
            return lastAcknowledgedNs;
        }

        /** Sessions it opened after its first. */
        long reconnects() {
            return Math.max(0, reconnects - 1);
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            thread.join(10_000);
        }
    }
}
