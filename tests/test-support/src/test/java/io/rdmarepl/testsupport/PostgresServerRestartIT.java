package io.rdmarepl.testsupport;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PostgresServerRestartIT {

    @Test
    void shouldRestartOnTheSameDataDirectoryAndPortKeepingCommittedRowsAndSettings() throws Exception {
        try (PostgresServer server = PostgresServer.builder("restarted").setting("work_mem", "5MB").start()) {
            final int port = server.port();
            final long pid = server.pid();
            server.execute("CREATE TABLE kept (id int PRIMARY KEY); INSERT INTO kept VALUES (1), (2)");
            try (Connection before = server.connect("postgres")) {
                server.restart(Duration.ofMillis(200));

                // sessions of the old postmaster are gone, as after a real restart
                assertThatThrownBy(() -> before.createStatement().execute("SELECT 1")).isInstanceOf(SQLException.class);
            }

            assertThat(server.port()).isEqualTo(port);
            assertThat(server.pid()).isNotEqualTo(pid);
            assertThat(StaleServers.isRunning(pid)).isFalse();
            assertThat(server.show("wal_level")).isEqualTo("logical");
            assertThat(server.show("fsync")).isEqualTo("off");
            assertThat(server.show("work_mem")).isEqualTo("5MB");
            try (Connection connection = server.connect("postgres");
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT count(*) FROM kept")) {
                rows.next();
                assertThat(rows.getLong(1)).isEqualTo(2);
            }

            server.restart();
            server.execute("INSERT INTO kept VALUES (3)");
            assertThat(server.dataDirectory()).isDirectory();
        }
    }

    @Test
    void shouldRefuseToRestartAClosedServer() {
        final PostgresServer server = PostgresServer.builder("closed_restart").start();
        server.close();

        assertThatThrownBy(server::restart).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThat(server.dataDirectory()).doesNotExist();
    }
}
