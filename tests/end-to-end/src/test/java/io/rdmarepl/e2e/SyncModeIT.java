package io.rdmarepl.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.PostgresServer;
import io.rdmarepl.testsupport.Stall;
import io.rdmarepl.testsupport.cluster.RoleProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
 * Sync mode with real processes: a commit on the primary returns only once the replica holds it; with the applier
 * gone, strict mode blocks commits (and says so in /status) until it is back; the degrading policy lets them through
 * after its timeout, reports async, and returns to sync once the applier caught up.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class SyncModeIT {
    private static final Logger LOG = LoggerFactory.getLogger(SyncModeIT.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    private Replication replication;
    private long nextId = 1;

    @BeforeAll
    void start() throws Exception {
        replication = Replication.create("sync");
        // the test servers run with synchronous_commit off (fast); commits wait for a standby only from 'on' up
        replication.primary().execute("ALTER DATABASE postgres SET synchronous_commit = on");
        replication.shipperSetting("replication.mode", "sync");
        replication.startBoth();
        awaitSyncState("sync");
    }

    @AfterAll
    void stop() {
        if (replication != null) {
            replication.close();
        }
    }

    @Test
    @Order(1)
    void aCommitReturnsOnlyOnceTheReplicaHoldsIt() throws Exception {
        long slowestUs = 0;
        for (int i = 0; i < 200; i++) {
            long id = nextId++;
            long startNs = System.nanoTime();
            insert(replication.primary(), id);
            slowestUs = Math.max(slowestUs, TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - startNs));
            assertThat(Replication.queryLong(replication.replica(), "SELECT count(*) FROM marker WHERE id = " + id))
                    .as("row %d is on the replica as soon as its commit returned on the primary", id).isEqualTo(1);
        }
        LOG.info("200 sync commits, each visible on the replica on return; slowest {} µs", slowestUs);
    }

    @Test
    @Order(2)
    void strictModeBlocksCommitsWhileTheApplierIsDownAndReleasesThemWhenItIsBack() throws Exception {
        replication.applier().kill();
        long id = nextId++;
        CompletableFuture<Void> commit = insertAsync(replication.primary(), id);
        assertBlocked(commit, Duration.ofSeconds(2));
        JsonNode sync = shipperStatus().path("sync");
        assertThat(sync.path("state").asText()).as("%s", sync).isEqualTo("sync");
        assertThat(sync.path("waiting_ms").asLong()).as("/status says commits are waiting: %s", sync).isGreaterThan(500);

        // the new applier replaces the ring: the shipper exits (by design) and is restarted, as a supervisor would
        RoleProcess shipper = replication.shipper();
        replication.startApplier();
        shipper.awaitExit(Duration.ofSeconds(20));
        replication.startShipper();
        commit.get(60, TimeUnit.SECONDS);
        assertThat(Replication.queryLong(replication.replica(), "SELECT count(*) FROM marker WHERE id = " + id)).isEqualTo(1);
    }

    @Test
    @Order(3)
    void theDegradingPolicyLetsCommitsThroughAfterItsTimeoutAndReturnsToSync() throws Exception {
        replication.shipper().stop(Duration.ofSeconds(20));
        replication.shipperSetting("sync.degrade.after.ms", "500");
        replication.startShipper();
        replication.awaitSlotActive();
        awaitSyncState("sync");

        // the applier stops answering (SIGSTOP) for longer than the policy's timeout, then resumes where it was
        long id = nextId++;
        long startNs;
        try (Stall stall = new Stall()) {
            CompletableFuture<Long> frozen = CompletableFuture.supplyAsync(() -> {
                try {
                    return stall.freeze(java.util.List.of(replication.applier().pid()), Duration.ofMillis(2500));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Await.until("the applier stopped (SIGSTOP)", Duration.ofSeconds(10), () -> Stall.stopped(replication.applier().pid()));
            startNs = System.nanoTime();
            insert(replication.primary(), id);
            long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
            JsonNode sync = shipperStatus().path("sync");
            LOG.info("with the applier stopped the commit returned after {} ms; sync status {}", waitedMs, sync);
            assertThat(waitedMs).as("the commit waited for the policy's timeout").isGreaterThanOrEqualTo(400);
            assertThat(sync.path("state").asText()).isEqualTo("degraded");
            assertThat(sync.path("degradations").asLong()).isEqualTo(1);
            long quick = System.nanoTime();
            insert(replication.primary(), nextId++);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - quick)).as("async now: no wait").isLessThan(400);
            frozen.get(30, TimeUnit.SECONDS);
        }
        awaitSyncState("sync");
        LOG.info("back to sync {} ms after the degradation", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs));
        long back = nextId++;
        insert(replication.primary(), back);
        assertThat(Replication.queryLong(replication.replica(), "SELECT count(*) FROM marker WHERE id = " + back))
                .as("sync again: on the replica when the commit returns").isEqualTo(1);
    }

    private void assertBlocked(CompletableFuture<Void> commit, Duration atLeast) throws Exception {
        try {
            commit.get(atLeast.toMillis(), TimeUnit.MILLISECONDS);
            throw new AssertionError("the commit returned although no standby holds it");
        } catch (TimeoutException expected) {
            // still waiting, as strict mode must
        }
    }

    private void awaitSyncState(String state) {
        Await.until("the shipper's sync state " + state, Duration.ofSeconds(60),
                () -> state.equals(shipperStatus().path("sync").path("state").asText()), replication::tails);
    }

    private JsonNode shipperStatus() throws Exception {
        String url = replication.shipper().statusUrl();
        if (url == null) {
            return JSON.createObjectNode();
        }
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(response.body());
    }

    private static void insert(PostgresServer server, long id) throws Exception {
        try (Connection c = server.connect("postgres"); Statement s = c.createStatement()) {
            s.execute("INSERT INTO marker (id) VALUES (" + id + ")");
        }
    }

    private static CompletableFuture<Void> insertAsync(PostgresServer server, long id) {
        return CompletableFuture.runAsync(() -> {
            try {
                insert(server, id);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }
}
