package io.rdmarepl.coordinator.fence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.coordinator.config.CoordinatorConfig;
import io.rdmarepl.coordinator.config.MemberConfig;
import io.rdmarepl.coordinator.roles.RoleClient;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fencing against a real server: made read-only when it answers, fence.command when it does not or its postmaster exited. */
class FencerIT {
    private static PostgresServer server;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        server = PostgresServer.primary(Durability.FAST);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @AfterEach
    void writable() throws SQLException {
        new Fencer(config(server.jdbcUrl("postgres"), ""), new RoleClient("")).unfence(member(config(server.jdbcUrl("postgres"), "")));
    }

    @Test
    void shouldMakeAnAnsweringPrimaryReadOnlyAndEndItsClientSessions() throws Exception {
        CoordinatorConfig config = config(server.jdbcUrl("postgres"), "");
        try (Connection client = server.connect("postgres")) {
            String done = new Fencer(config, new RoleClient("")).fence(member(config));
            assertThat(done).startsWith("pga made read-only, ").contains("client session(s) ended");
            assertThat(client.isValid(2)).as("the client session was ended").isFalse();
        }
        assertThat(server.show("default_transaction_read_only")).isEqualTo("on");
    }

    @Test
    void shouldRunTheFenceCommandWithoutTryingSqlWhenThePostmasterExited() throws Exception {
        Path fenced = dir.resolve("fenced");
        CoordinatorConfig config = config(server.jdbcUrl("postgres"), "echo \"$RDMAREPL_MEMBER\" > " + fenced);
        String done = new Fencer(config, new RoleClient("")).fenceExited(member(config), "process 4711 exited (state Z)");
        assertThat(done).isEqualTo("pga's postmaster exited (its shipper saw: process 4711 exited (state Z)); fence.command fenced it");
        assertThat(Files.readString(fenced).strip()).isEqualTo("pga");
        // this server runs: had the fencer tried SQL, it would be read-only now
        assertThat(server.show("default_transaction_read_only")).as("no SQL was tried").isEqualTo("off");
    }

    @Test
    void shouldRelyOnTheEpochWhenThePostmasterExitedAndNoFenceCommandIsConfigured() {
        CoordinatorConfig config = config(server.jdbcUrl("postgres"), "");
        assertThat(new Fencer(config, new RoleClient("")).fenceExited(member(config), "process 4711 is gone"))
                .isEqualTo("pga's postmaster exited (its shipper saw: process 4711 is gone); no fence.command configured: the epoch fences it");
        assertThat(server.show("default_transaction_read_only")).isEqualTo("off");
    }

    @Test
    void shouldStopTheFailoverWhenTheFenceCommandOfAnUnreachablePrimaryFails() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        CoordinatorConfig config = config("jdbc:postgresql://127.0.0.1:" + closedPort + "/postgres", "echo no power switch; exit 3");
        assertThatThrownBy(() -> new Fencer(config, new RoleClient("")).fence(member(config)))
                .isInstanceOf(FenceException.class)
                .hasMessage("fence.command for pga exited 3 (no power switch): not promoting");
    }

    private static MemberConfig member(CoordinatorConfig config) {
        return config.member("pga").orElseThrow();
    }

    private static CoordinatorConfig config(String primaryUrl, String fenceCommand) {
        Properties p = new Properties();
        p.setProperty("members", "pga,pgb");
        p.setProperty("member.pga.jdbc.url", primaryUrl);
        p.setProperty("member.pgb.jdbc.url", "jdbc:postgresql://127.0.0.1:1/postgres");
        p.setProperty("member.pgb.applier.admin", "http://127.0.0.1:1");
        p.setProperty("initial.primary", "pga");
        p.setProperty("database.user", PostgresServer.SUPERUSER);
        p.setProperty("fence.command", fenceCommand);
        return CoordinatorConfig.load(p);
    }
}
