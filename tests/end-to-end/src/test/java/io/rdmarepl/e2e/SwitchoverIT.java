package io.rdmarepl.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.client.FailoverDataSource;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.PostgresServer;
import io.rdmarepl.testsupport.cluster.CoordinatorHttp;
import io.rdmarepl.testsupport.compare.ComparisonReport;
import io.rdmarepl.testsupport.history.ClientWriter;
import io.rdmarepl.testsupport.history.HistoryCheck;
import io.rdmarepl.trials.Applications;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Planned switchover there and back, with real processes on both members (a shipper and an applier beside each,
 * the unused ones waiting for the coordinator) and a client writing through the failover-aware DataSource the whole
 * time: pga → pgb, pgb → pga. Each switchover loses nothing the client was told committed, and the old primary
 * rejoins as a standby through a fresh copy; at the end replica = primary.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SwitchoverIT {
    private static final Logger LOG = LoggerFactory.getLogger(SwitchoverIT.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration REJOIN_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration WRITES_TIMEOUT = Duration.ofSeconds(60);

    private Replication replication;
    private CoordinatorHttp coordinator;
    private FailoverDataSource dataSource;
    private long nextMarker = 1_000_000;

    @BeforeAll
    void startEverything() throws Exception {
        replication = Replication.create("switchover").coordinated();
        replication.primary().execute(ClientWriter.SCHEMA);
        replication.replica().execute(ClientWriter.SCHEMA);
        replication.startBoth();
        replication.startReverseRoles();
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
    void switchoverThereAndBackLosesNothingAndEndsWithReplicaEqualToPrimary() throws Exception {
        PostgresServer pga = replication.primary();
        PostgresServer pgb = replication.replica();
        List<String> outages = new ArrayList<>();
        try (ClientWriter writer = Applications.writerThrough(dataSource).start()) {
            writer.awaitMore(200, WRITES_TIMEOUT);

            JsonNode there = switchover("pgb", 2);
            outages.add(there.path("catch_up_ms").asText() + " ms catch-up, promotion " + there.path("promotion_ms").asText() + " ms");
            writer.awaitMore(200, WRITES_TIMEOUT);
            assertThat(writer.history().ids(ClientWriter.member(pgb))).as("the client writes to pgb after the switchover").isNotEmpty();
            awaitRejoined("pga");
            assertThat(readOnlyForClients(pga)).as("pga follows pgb: read-only for clients").isTrue();
            awaitReplicated(pgb, pga);

            switchover("pga", 3);
            writer.awaitMore(200, WRITES_TIMEOUT);
            awaitRejoined("pgb");
            LOG.info("client through two switchovers: {} acknowledged, {} failed attempts, longest outage {} ms; {}",
                    writer.acknowledged(), writer.failures(), writer.longestOutageMs(), outages);
            writer.close();

            Set<Long> lost = HistoryCheck.lost(writer.history().ids(), ClientWriter.ids(pga));
            assertThat(lost).as("every write a client was told committed, on whichever member, survives both switchovers").isEmpty();
        }
        awaitReplicated(pga, pgb);
        ComparisonReport tables = replication.compare();
        assertThat(tables.table("public.client_writes")).as("client_writes compared too\n%s", tables).isPresent();
        assertThat(tables.equal()).as("replica = primary after a switchover there and back\n%s\n%s", tables,
                replication.diagnostics()).isTrue();
        assertThat(readOnlyForClients(pga)).as("pga is primary again: writable").isFalse();
        assertThat(readOnlyForClients(pgb)).as("pgb follows pga: read-only for clients").isTrue();
        assertThat(slotActive(pga)).as("pga's shipper streams from a fresh slot").isTrue();
        assertThat(slotActive(pgb)).as("pgb's retired shipper left no slot holding WAL").isNull();
    }

    private JsonNode switchover(String to, int epoch) throws Exception {
        HttpResponse<String> response = coordinator.post("/switchover", "{\"to\":\"" + to + "\"}", Replication.COORDINATOR_TOKEN);
        assertThat(response.statusCode()).as("switchover to %s: %s\n%s", to, response.body(), replication.tails()).isEqualTo(200);
        JsonNode answer = JSON.readTree(response.body());
        LOG.info("switchover to {}: {}", to, answer);
        assertThat(answer.path("result").asText()).isEqualTo("switched");
        assertThat(answer.path("epoch").asInt()).isEqualTo(epoch);
        assertThat(answer.path("message").asText()).contains("nothing lost");
        assertThat(answer.path("rejoin").path("result").asText()).as("%s", answer).isEqualTo("rejoining");
        return answer;
    }

    private void awaitRejoined(String member) throws Exception {
        JsonNode status = coordinator.awaitPhase("HEALTHY", REJOIN_TIMEOUT);
        assertThat(status.toString()).as("%s", status).contains(member);
        LOG.info("{} rejoined: {}", member, status.path("last_decision"));
    }

    /** Commits a marker row on {@code from} and waits until {@code to} holds it (commit order: and all before). */
    private void awaitReplicated(PostgresServer from, PostgresServer to) throws Exception {
        long marker = nextMarker++;
        Workload.mark(from, marker);
        Await.until("marker " + marker + " on port " + to.port(), Replication.CATCH_UP_TIMEOUT,
                () -> Replication.queryLong(to, "SELECT count(*) FROM marker WHERE id = " + marker) > 0, replication::diagnostics);
    }

    private static boolean readOnlyForClients(PostgresServer server) throws SQLException {
        try (Connection c = server.connect("postgres"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SHOW default_transaction_read_only")) {
            rs.next();
            return "on".equals(rs.getString(1));
        }
    }

    /** Whether the slot rdmarepl streams on {@code server}; null when there is none. */
    private static Boolean slotActive(PostgresServer server) throws SQLException {
        try (Connection c = server.connect("postgres"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT active FROM pg_replication_slots WHERE slot_name = 'rdmarepl'")) {
            return rs.next() ? rs.getBoolean(1) : null;
        }
    }
}
