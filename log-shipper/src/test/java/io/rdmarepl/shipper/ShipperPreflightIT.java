package io.rdmarepl.shipper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.rdmarepl.shipper.capture.PrimaryPreflight;
import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.net.ServerSocket;
import java.sql.Connection;
import org.postgresql.PGConnection;
import org.postgresql.replication.PGReplicationStream;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The mistakes users make first each get one line naming the cause and the fix. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShipperPreflightIT {
    private static PostgresServer primary;

    @BeforeAll
    static void startPrimary() {
        primary = PostgresServer.builder("preflight_primary").durability(Durability.FAST).unixSocket().start();
        primary.execute("CREATE ROLE plain LOGIN");
    }

    @AfterAll
    static void stopPrimary() {
        if (primary != null) {
            primary.close();
        }
    }

    @Test
    void shouldNameAnUnreachablePrimary() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        assertThatThrownBy(() -> start(Map.of("database.port", Integer.toString(closedPort))))
                .hasMessageContaining("primary postgres@127.0.0.1:" + closedPort + "/postgres unreachable")
                .hasMessageContaining("check database.host, database.port");
    }

    /** A sidecar on the primary's host: preflight, and every JDBC session of the shipper, go through its socket. */
    @Test
    void shouldReachThePrimaryThroughItsUnixSocketWhenTheHostIsADirectory() throws Exception {
        ShipperConfig config = ShipperConfig.load(settings(Map.of("database.host", primary.socketDirectory().toString())));
        assertThat(PrimaryPreflight.check(config)).as("no slot yet").isFalse();
        try (Connection connection = PrimaryPreflight.connect(config); java.sql.Statement statement = connection.createStatement();
             java.sql.ResultSet rs = statement.executeQuery("SELECT inet_client_addr() IS NULL")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getBoolean(1)).as("no client address: the session came through the Unix-domain socket").isTrue();
        }
    }

    @Test
    void shouldNameTheSocketFileOfAnUnreachablePrimary() {
        assertThatThrownBy(() -> start(Map.of("database.host", "/nonexistent/run")))
                .hasMessageContaining("/nonexistent/run/.s.PGSQL." + primary.port())
                .hasMessageContaining("check database.host, database.port");
    }

    @Test
    void shouldNameAMissingReplicationPrivilege() {
        assertThatThrownBy(() -> start(Map.of("database.user", "plain")))
                .hasMessageContaining("user plain")
                .hasMessageContaining("lacks the REPLICATION privilege: ALTER ROLE plain REPLICATION");
    }

    @Test
    void shouldNameASlotInUseByAnotherProcess() throws Exception {
        primary.execute("CREATE PUBLICATION busy_pub FOR ALL TABLES");
        primary.execute("SELECT pg_create_logical_replication_slot('busy', 'pgoutput')");
        try (Connection replication = primary.connectForReplication("postgres");
             PGReplicationStream stream = replication.unwrap(PGConnection.class).getReplicationAPI().replicationStream().logical()
                     .withSlotName("busy").withSlotOption("proto_version", "1").withSlotOption("publication_names", "busy_pub").start()) {
            assertThatThrownBy(() -> start(Map.of("slot.name", "busy")))
                    .hasMessageContaining("replication slot busy")
                    .hasMessageContaining("is in use by backend pid")
                    .hasMessageContaining("pg_terminate_backend(");
        }
    }

    @Test
    void shouldWaitForTheWalsenderOfAShipperThatIsStopping() throws Exception {
        primary.execute("CREATE PUBLICATION leaving_pub FOR ALL TABLES");
        primary.execute("SELECT pg_create_logical_replication_slot('leaving', 'pgoutput')");
        Connection replication = primary.connectForReplication("postgres");
        PGReplicationStream stream = replication.unwrap(PGConnection.class).getReplicationAPI().replicationStream().logical()
                .withSlotName("leaving").withSlotOption("proto_version", "1").withSlotOption("publication_names", "leaving_pub")
                .start();
        assertThat(slotActive("leaving")).as("streamed from when the new shipper starts").isTrue();
        Thread predecessor = new Thread(() -> {
            try {
                Thread.sleep(1000); // the subject: the old shipper's walsender leaves a moment after the new one starts
                stream.close();
                replication.close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "stopping-shipper");
        predecessor.start();
        try {
            PrimaryPreflight.check(ShipperConfig.load(settings(Map.of("slot.name", "leaving"))));
        } finally {
            predecessor.join();
        }
        assertThat(slotActive("leaving")).as("left by the old walsender when the check returned").isFalse();
    }

    @Test
    void shouldNameASlotOfAnotherPlugin() {
        primary.execute("SELECT pg_create_logical_replication_slot('wrong_plugin', 'test_decoding')");
        assertThatThrownBy(() -> start(Map.of("slot.name", "wrong_plugin")))
                .hasMessageContaining("replication slot wrong_plugin")
                .hasMessageContaining("uses plugin test_decoding, not pgoutput");
    }

    @Test
    void shouldNameAnUnreachableStandby() {
        assertThatThrownBy(() -> start(Map.of("standby.a.uri", "shm:///dev/shm/rdmarepl-nobody-here", "standby.connect.timeout.ms", "200")))
                .hasMessageContaining("standby a (shm:///dev/shm/rdmarepl-nobody-here) unreachable after 200 ms")
                .hasMessageContaining("start the reader (standby) side first");
    }

    private static void start(Map<String, String> overrides) {
        Shipper.start(ShipperConfig.load(settings(overrides)), new TextChangeEncoding(), Map.of(), new SimpleMeterRegistry()).close();
    }

    private static boolean slotActive(String slot) throws Exception {
        try (Connection c = primary.connect("postgres"); java.sql.Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT active FROM pg_replication_slots WHERE slot_name = '" + slot + "'")) {
            return rs.next() && rs.getBoolean(1);
        }
    }

    private static Properties settings(Map<String, String> overrides) {
        Properties p = new Properties();
        p.setProperty("database.host", PostgresServer.HOST);
        p.setProperty("database.port", Integer.toString(primary.port()));
        p.setProperty("standbys", "a");
        p.setProperty("standby.a.uri", "shm:///dev/shm/rdmarepl-preflight-unused");
        p.setProperty("standby.connect.timeout.ms", "200");
        p.setProperty("admin.address", "127.0.0.1:0");
        overrides.forEach(p::setProperty);
        return p;
    }
}
