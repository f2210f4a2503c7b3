package io.rdmarepl.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.client.FailoverDataSource;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.PostgresServer;
import io.rdmarepl.testsupport.Stall;
import io.rdmarepl.testsupport.cluster.CoordinatorHttp;
import io.rdmarepl.testsupport.history.ClientWriter;
import io.rdmarepl.testsupport.history.HistoryCheck;
import io.rdmarepl.trials.Applications;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
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
 * The coordinator against real processes: shipper, applier and {@code rdmarepl coordinate}, a client writing
 * through the failover-aware DataSource. Stalls shorter than the thresholds change nothing; the control API wants
 * its token; {@code kill -9} of the primary's postmaster under load ends with the replica promoted as the one
 * writable primary and the client writing to it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class FailoverIT {
    private static final Logger LOG = LoggerFactory.getLogger(FailoverIT.class);

    private Replication replication;
    private CoordinatorHttp coordinator;
    private FailoverDataSource dataSource;

    @BeforeAll
    void startEverything() throws Exception {
        replication = Replication.create("failover").coordinated();
        replication.primary().execute(ClientWriter.SCHEMA);
        replication.replica().execute(ClientWriter.SCHEMA);
        replication.startBoth();
        coordinator = new CoordinatorHttp(replication.adminBase(replication.startCoordinator(Map.of())));
        coordinator.awaitPhase("HEALTHY", Duration.ofSeconds(30));
        dataSource = Applications.dataSource(coordinator);
    }

    @AfterAll
    void stopEverything() {
        if (dataSource != null) {
            dataSource.close();
        }
        if (replication != null) {
            replication.close();
        }
    }

    @Test
    @Order(1)
    void controlActionsWithoutTheTokenAreRefused() throws Exception {
        assertThat(coordinator.post("/failover", "{\"force\":true}", null).statusCode()).isEqualTo(401);
        assertThat(coordinator.post("/failover", "{\"force\":true}", "wrong").statusCode()).isEqualTo(401);
        assertThat(coordinator.post("/failover", "{}", Replication.COORDINATOR_TOKEN).statusCode())
                .as("a failover of a healthy primary without --force is refused").isEqualTo(409);
        assertThat(coordinator.status().path("epoch").asInt()).isEqualTo(1);
    }

    @Test
    @Order(2)
    void stallsShorterThanTheThresholdsNeverFailOver() throws Exception {
        long longestUs = 0;
        try (ClientWriter writer = Applications.writerThrough(dataSource).start(); Stall stall = new Stall()) {
            for (int i = 0; i < 20; i++) {
                List<Long> pids = new ArrayList<>(Stall.postgres(replication.primary().pid()));
                pids.add(replication.shipper().pid());
                longestUs = Math.max(longestUs, stall.freeze(pids, Duration.ofMillis(5)));
                Thread.sleep(100); // the gap between two stalls, part of the fault: not a wait for something
            }
            // no event says "no failover": the coordinator watched for a second after the last stall
            Await.holds("the coordinator HEALTHY at epoch 1 after the stalls", Duration.ofSeconds(1), () -> {
                JsonNode status = coordinator.status();
                return "HEALTHY".equals(status.path("phase").asText()) && status.path("epoch").asInt() == 1;
            });
            assertThat(writer.acknowledged()).as("writes acknowledged through the stalls").isPositive();
        }
        LOG.info("20 stalls of the primary and its shipper together, the longest {} µs", longestUs);
        JsonNode status = coordinator.status();
        assertThat(status.path("phase").asText()).as("%s", status).isEqualTo("HEALTHY");
        assertThat(status.path("epoch").asInt()).isEqualTo(1);
        JsonNode primary = shipperPrimary();
        assertThat(primary.path("postmaster_exited").asBoolean(true)).as("a stopped postmaster has not exited: %s", primary).isFalse();
        assertThat(primary.path("postmaster").path("pid").asLong()).as("the shipper watches the primary's postmaster")
                .isEqualTo(replication.primary().pid());
    }

    /**
     * What a failover refused after its fence step leaves behind (its standby would not drain): the primary read-only
     * and its shipper fenced, nothing promoted. The coordinator must lift both rather than call the cluster HEALTHY over
     * a primary that refuses every write and ships nothing (a CI run of PartitionIT once ended there).
     */
    @Test
    @Order(3)
    void aFenceWhoseFailoverDidNotHappenIsLiftedAndThePrimaryWritesAndShipsAgain() throws Exception {
        PostgresServer primary = replication.primary();
        primary.execute("ALTER SYSTEM SET default_transaction_read_only = on");
        primary.execute("SELECT pg_reload_conf()");
        HttpResponse<String> fenced = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(replication.adminBase(replication.shipper()) + "/fence"))
                .header("Authorization", "Bearer " + Replication.ROLES_TOKEN)
                .POST(HttpRequest.BodyPublishers.ofString("{\"reason\":\"a failover that was then refused\"}"))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(fenced.statusCode()).as(fenced.body()).isEqualTo(200);

        Await.until("the primary takes writes again", Duration.ofSeconds(30), () -> insertsRow(primary, -2), replication::tails);
        Await.until("the row written after the lift reaches the replica", Duration.ofSeconds(30),
                () -> Replication.queryLong(replication.replica(), "SELECT count(*) FROM client_writes WHERE id = -2") == 1,
                replication::tails);
        JsonNode status = coordinator.awaitPhase("HEALTHY", Duration.ofSeconds(10));
        assertThat(status.path("epoch").asInt()).isEqualTo(1);
        assertThat(coordinator.history().toString()).contains("pga's shipper says it is fenced")
                .contains("pga was fenced and nothing was promoted: it takes writes again and its shipper ships");
        assertThat(shipperPrimary().path("fenced").asBoolean(true)).isFalse();
    }

    /**
     * The shipper killed and back later than its lease: its guard made the primary read-only, and the new shipper
     * starts fenced over it. No failover happened (the primary answers its probe), so the coordinator lifts the fence.
     */
    @Test
    @Order(4)
    void aPrimaryItsLeaseGuardFencedWithoutAFailoverIsLiftedOnceItsShipperIsBack() throws Exception {
        PostgresServer primary = replication.primary();
        int adminPort = URI.create(replication.adminBase(replication.shipper())).getPort();
        replication.shipper().kill();
        Await.until("the lease guard made the primary read-only", Duration.ofSeconds(30), () -> readOnlyForClients(primary),
                replication::tails);

        replication.shipperSetting("admin.address", "127.0.0.1:" + adminPort); // where the coordinator looks for it
        replication.startShipper();
        Await.until("the primary takes writes again", Duration.ofSeconds(60), () -> insertsRow(primary, -3), replication::tails);
        Await.until("the row written after the lift reaches the replica", Duration.ofSeconds(30),
                () -> Replication.queryLong(replication.replica(), "SELECT count(*) FROM client_writes WHERE id = -3") == 1,
                replication::tails);
        String history = coordinator.history().toString();
        assertThat(history.split("pga was fenced and nothing was promoted", -1)).as("a second lift: %s", history).hasSize(3);
        assertThat(coordinator.awaitPhase("HEALTHY", Duration.ofSeconds(10)).path("epoch").asInt()).isEqualTo(1);
    }

    @Test
    @Order(5)
    void killingThePrimaryPromotesTheReplicaAndClientsFollow() throws Exception {
        long killNs;
        JsonNode promoted;
        try (ClientWriter writer = Applications.writerThrough(dataSource).start()) {
            Await.until("300 writes acknowledged", Duration.ofSeconds(60), () -> writer.acknowledged() >= 300);
            killNs = System.nanoTime();
            ProcessHandle.of(replication.primary().pid()).ifPresent(ProcessHandle::destroyForcibly);
            promoted = coordinator.awaitPhase("PROMOTED", Duration.ofSeconds(30));
            long promotedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killNs);
            writer.awaitMore(200, Duration.ofSeconds(30)); // the client writes again after the failover
            LOG.info("kill -9 -> PROMOTED seen in {} ms; last failover {}; client: {} failed attempts, longest outage {} ms",
                    promotedMs, promoted.path("last_failover"), writer.failures(), writer.longestOutageMs());
            writer.close();

            Set<Long> onReplica = ClientWriter.ids(replication.replica());
            Set<Long> byOldPrimary = writer.history().ids(ClientWriter.member(replication.primary()));
            Set<Long> byNewPrimary = writer.history().ids(ClientWriter.member(replication.replica()));
            Set<Long> lost = HistoryCheck.lost(byOldPrimary, onReplica);
            Set<Long> missing = HistoryCheck.lost(byNewPrimary, onReplica);
            LOG.info("acknowledged by the old primary: {}, of which lost in flight (async): {}; by the new primary: {}",
                    byOldPrimary.size(), lost.size(), byNewPrimary.size());
            assertThat(byOldPrimary.size() + byNewPrimary.size()).as("every acknowledged write came from one of the two")
                    .isEqualTo(writer.history().size());
            assertThat(missing).as("every write the new primary acknowledged is on it").isEmpty();
            assertThat(lost.size()).as("async mode loses at most what was in flight").isLessThan(byOldPrimary.size() / 2);
        }
        assertThat(promoted.path("primary").asText()).isEqualTo("pgb");
        assertThat(promoted.path("epoch").asInt()).isEqualTo(2);
        assertThat(promoted.path("last_failover").path("message").asText()).contains("pgb promoted at epoch 2");
        assertThat(promoted.path("last_failover").path("fence_confirmed").asBoolean())
                .as("a postmaster its shipper saw exit takes no writes: %s", promoted.path("last_failover")).isTrue();
        assertThat(promoted.path("last_failover").path("lease_wait_ms").asLong()).as("a confirmed fence promotes without waiting")
                .isZero();
        assertThat(writable(replication.replica())).as("the promoted replica takes writes").isTrue();
        assertThat(reachable(replication.primary())).as("the old primary is gone (one writable primary)").isFalse();
        // the shipper process ends with its primary (a supervisor restarts it); what it saw is in its log
        assertThat(replication.shipper().log()).as("the shipper saw the postmaster exit")
                .contains("the primary's postmaster exited (process " + replication.primary().pid() + " ");
    }


    /** The error a write on {@code server} meets; a write that succeeds fails the test. */
    private static SQLException writeRefusal(PostgresServer server) {
        try (Connection c = server.connect("postgres"); Statement s = c.createStatement()) {
            s.execute("INSERT INTO client_writes (id) VALUES (-2)");
        } catch (SQLException refused) {
            return refused;
        }
        throw new AssertionError("the restarted old primary took a write");
    }

    @Test
    @Order(6)
    void theOldPrimaryRestartedAfterTheFailoverStaysReadOnlyAndItsShipperDoesNotResume() throws Exception {
        PostgresServer oldPrimary = replication.primary();
        oldPrimary.restart();
        long restartedNs = System.nanoTime();
        Await.until("the coordinator re-fences the old primary", Duration.ofSeconds(10), () -> readOnlyForClients(oldPrimary));
        LOG.info("old primary read-only again {} ms after its restart",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restartedNs));
        // the fence ends the sessions it finds after it made the server read-only: a session opened in between is
        // ended (57P01) rather than refused; no write may succeed either way
        SQLException refused = Await.until("a write on the old primary refused, not its session ended by the fence",
                Duration.ofSeconds(10), () -> writeRefusal(oldPrimary), e -> !"57P01".equals(e.getSQLState()));
        assertThat(refused.getSQLState()).as("%s", refused.getMessage()).isEqualTo("25006");
        // no event says "does not resume": watched for two seconds
        Await.holds("no slot on the old primary streamed from again (its shipper does not resume)", Duration.ofSeconds(2),
                () -> activeSlots(oldPrimary) == 0);
        JsonNode status = coordinator.status();
        assertThat(status.path("primary").asText()).isEqualTo("pgb");
        assertThat(status.path("epoch").asInt()).isEqualTo(2);
        assertThat(writable(replication.replica())).as("the new primary still takes writes").isTrue();
    }

    /** The primary's shipper's {@code GET /primary}: what it knows of the primary's postmaster. */
    private JsonNode shipperPrimary() throws Exception {
        String status = replication.shipper().statusUrl();
        assertThat(status).as("the shipper printed its admin address").isNotNull();
        HttpResponse<String> answer = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(status.replace("/status", "/primary")))
                        .timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return new ObjectMapper().readTree(answer.body());
    }

    /**
     * Slots streamed from on {@code server}. The fence may still be ending the sessions it found (its
     * {@code pg_terminate_backend}, SQLSTATE 57P01) when the read-only setting already shows: such a query is asked
     * again on a new session.
     */
    private static long activeSlots(PostgresServer server) throws SQLException {
        String sql = "SELECT count(*) FROM pg_replication_slots WHERE active";
        try {
            return Replication.queryLong(server, sql);
        } catch (SQLException e) {
            if (!"57P01".equals(e.getSQLState())) {
                throw e;
            }
            return Replication.queryLong(server, sql);
        }
    }

    private static boolean readOnlyForClients(PostgresServer server) {
        try (Connection c = server.connect("postgres"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SHOW default_transaction_read_only")) {
            rs.next();
            return "on".equals(rs.getString(1));
        } catch (SQLException notUpYet) {
            return false;
        }
    }

    private static boolean writable(PostgresServer server) throws SQLException {
        try (Connection c = server.connect("postgres"); Statement s = c.createStatement()) {
            s.execute("INSERT INTO client_writes (id) VALUES (-1) ON CONFLICT (id) DO NOTHING");
            return true;
        }
    }

    /** Inserts {@code id} into client_writes: false while the server refuses writes (read-only, 25006). */
    private static boolean insertsRow(PostgresServer server, int id) throws SQLException {
        try (Connection c = server.connect("postgres"); Statement s = c.createStatement()) {
            s.execute("INSERT INTO client_writes (id) VALUES (" + id + ") ON CONFLICT (id) DO NOTHING");
            return true;
        } catch (SQLException e) {
            if ("25006".equals(e.getSQLState())) {
                return false;
            }
            throw e;
        }
    }

    private static boolean reachable(PostgresServer server) {
        try (Connection c = server.connect("postgres")) {
            return true;
        } catch (SQLException e) {
            return false;
        }
    }
}
