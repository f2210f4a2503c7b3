package io.rdmarepl.coordinator.fence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.coordinator.config.CoordinatorConfig;
import io.rdmarepl.coordinator.config.MemberConfig;
import io.rdmarepl.coordinator.roles.HttpRoleClient;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fencing against a real server: made read-only when it answers, fence.command when it does not or its postmaster exited. */
class SqlFencerIT {
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
        new SqlFencer(config(server.jdbcUrl("postgres"), ""), new HttpRoleClient("")).unfence(member(config(server.jdbcUrl("postgres"), "")));
    }

    @Test
    void shouldMakeAnAnsweringPrimaryReadOnlyAndEndItsClientSessionsEvenThoseThatTurnedReadOnlyOff() throws Exception {
        CoordinatorConfig config = config(server.jdbcUrl("postgres"), "");
        try (Connection client = server.connect("postgres"); Connection insisting = server.connect("postgres");
             Statement writes = insisting.createStatement()) {
            writes.execute("SET default_transaction_read_only = off");
            Fenced done = new SqlFencer(config, new HttpRoleClient("")).fence(member(config));
            assertThat(done.sentence()).startsWith("pga made read-only, ").contains("client session(s) ended");
            assertThat(done.confirmed()).as("SQL fenced it: no lease to wait for").isTrue();
            assertThat(client.isValid(2)).as("the client session was ended").isFalse();
            assertThatThrownBy(() -> writes.execute("SELECT 1")).as("and the one that turned read-only off").isInstanceOf(SQLException.class);
        }
        assertThat(server.show("default_transaction_read_only")).isEqualTo("on");
    }

    @Test
    void shouldLeaveTheFenceOfAnUnreachablePrimaryUnconfirmedWithoutAFenceCommand() throws Exception {
        CoordinatorConfig config = config("jdbc:postgresql://127.0.0.1:" + closedPort() + "/postgres", "");
        Fenced done = new SqlFencer(config, new HttpRoleClient("")).fence(member(config));
        assertThat(done.confirmed()).as("only its lease running out makes it refuse writes").isFalse();
        assertThat(done.sentence()).startsWith("pga unreachable (").endsWith("no fence.command configured: not confirmed, its lease must run out");
        CoordinatorConfig commanded = config("jdbc:postgresql://127.0.0.1:" + closedPort() + "/postgres", "exit 0");
        assertThat(new SqlFencer(commanded, new HttpRoleClient("")).fence(member(commanded)).confirmed()).as("fence.command exited 0").isTrue();
    }

    @Test
    void shouldRunTheFenceCommandWithoutTryingSqlWhenThePostmasterExited() throws Exception {
        Path fenced = dir.resolve("fenced");
        CoordinatorConfig config = config(server.jdbcUrl("postgres"), "echo \"$RDMAREPL_MEMBER\" > " + fenced);
        Fenced done = new SqlFencer(config, new HttpRoleClient("")).fenceExited(member(config), "process 4711 exited (state Z)");
        assertThat(done.sentence()).isEqualTo("pga's postmaster exited (its shipper saw: process 4711 exited (state Z)); fence.command fenced it");
        assertThat(done.confirmed()).isTrue();
        assertThat(Files.readString(fenced).strip()).isEqualTo("pga");
        // this server runs: had the fencer tried SQL, it would be read-only now
        assertThat(server.show("default_transaction_read_only")).as("no SQL was tried").isEqualTo("off");
    }

    @Test
    void shouldCountAnExitedPostmasterAsFencedWhenNoFenceCommandIsConfigured() {
        CoordinatorConfig config = config(server.jdbcUrl("postgres"), "");
        Fenced done = new SqlFencer(config, new HttpRoleClient("")).fenceExited(member(config), "process 4711 is gone");
        assertThat(done.sentence()).isEqualTo("pga's postmaster exited (its shipper saw: process 4711 is gone): it takes no writes");
        assertThat(done.confirmed()).as("a dead postmaster starts no session: no lease to wait for").isTrue();
        assertThat(server.show("default_transaction_read_only")).isEqualTo("off");
    }

    @Test
    void shouldStopTheFailoverWhenTheFenceCommandOfAnUnreachablePrimaryFails() throws Exception {
        CoordinatorConfig config = config("jdbc:postgresql://127.0.0.1:" + closedPort() + "/postgres", "echo no power switch; exit 3");
        assertThatThrownBy(() -> new SqlFencer(config, new HttpRoleClient("")).fence(member(config)))
                .isInstanceOf(FenceException.class)
                .hasMessage("fence.command for pga exited 3 (no power switch): not promoting");
    }

    private static int closedPort() throws java.io.IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
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
