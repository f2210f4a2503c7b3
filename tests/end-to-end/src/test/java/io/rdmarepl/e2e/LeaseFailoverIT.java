package io.rdmarepl.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.testsupport.cluster.CoordinatorHttp;
import io.rdmarepl.testsupport.history.Ack;
import io.rdmarepl.testsupport.history.ClientWriter;
import io.rdmarepl.testsupport.history.WriteHistory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
        try (ClientWriter old = ClientWriter.insistingOn(replication.primary()).start();
             ClientWriter promoted = ClientWriter.sessionPerWrite(replication.replica()).interval(Duration.ofMillis(10)).start()) {
            old.awaitMore(50, Duration.ofSeconds(60));
            primarySql.cut();
            shipperAdmin.cut();
            requestedNs = System.nanoTime();
            HttpResponse<String> answer = coordinator.post("/failover", "{\"force\":true,\"to\":\"pgb\"}", Replication.COORDINATOR_TOKEN);
            assertThat(answer.statusCode()).as("%s\n%s", answer.body(), replication.tails()).isEqualTo(200);
            report = JSON.readTree(answer.body());
            promoted.awaitMore(1, Duration.ofSeconds(60));
            old.close();
            promoted.close();
            long oldLastNs = last(old.history()).acknowledgedNs();
            long promotedFirstNs = promoted.history().acks().get(0).acknowledgedNs();
            LOG.info("failover report: {}", report);
            LOG.info("old primary: {} acknowledged, last {} ms after the request, {} sessions; new primary: first write {} ms after it",
                    old.acknowledged(), ms(oldLastNs - requestedNs), old.sessionsOpened(), ms(promotedFirstNs - requestedNs));

            assertThat(report.path("fence_confirmed").asBoolean(true)).as("the SQL fence could not reach pga: %s", report).isFalse();
            assertThat(report.path("lease_wait_ms").asLong()).as("waited for the lease: %s", report).isGreaterThanOrEqualTo(LEASE_MS);
            assertThat(promotedFirstNs - requestedNs).as("no write on pgb before pga's lease could have run out")
                    .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(LEASE_MS));
            assertThat(oldLastNs).as("pga acknowledged its last write before pgb its first").isLessThan(promotedFirstNs);
            assertThat(old.sessionsOpened()).as("the session that turned read-only off was ended: another one opened").isGreaterThan(1);
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

    private static Ack last(WriteHistory history) {
        List<Ack> acks = history.acks();
        return acks.get(acks.size() - 1);
    }
}
