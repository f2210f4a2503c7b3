package io.rdmarepl.testsupport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PostgresPairIT {
    @Test
    void shouldStartDistinctServersAndLeaveNothingBehindAfterClose() {
        final PostgresPair pair = PostgresPair.start(Durability.FAST);
        final PostgresServer primary = pair.primary();
        final PostgresServer replica = pair.replica();
        try {
            assertThat(replica.port()).isNotEqualTo(primary.port());
            assertThat(replica.pid()).isNotEqualTo(primary.pid());
            assertThat(replica.dataDirectory()).isNotEqualTo(primary.dataDirectory());
            assertThat(replica.serverVersion()).startsWith("17.");
            assertThat(replica.show("wal_level")).isEqualTo("logical");
            replica.execute("CREATE TABLE only_on_replica (id int)");
            assertThatThrownBy(() -> primary.execute("SELECT * FROM only_on_replica"))
                .hasRootCauseMessage("ERROR: relation \"only_on_replica\" does not exist\n  Position: 15");
        } finally {
            pair.close();
        }

        for (final PostgresServer server : new PostgresServer[] {primary, replica}) {
            assertThat(server.isClosed()).isTrue();
            assertThat(StaleServers.isRunning(server.pid())).isFalse();
            assertThat(server.dataDirectory().getParent()).doesNotExist();
            assertThatThrownBy(() -> connect(server.port())).isInstanceOf(IOException.class);
        }
    }

    @Test
    void shouldNameServerPortAndDataDirectoryWhenStartFails() {
        assertThatThrownBy(() -> PostgresServer.builder("broken")
                .setting("shared_buffers", "lots")
                .startupTimeout(Duration.ofSeconds(2))
                .start())
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("PostgreSQL server 'broken' failed to start on 127.0.0.1:")
            .hasMessageContaining("with data directory " + PostgresServer.defaultBaseDirectory().resolve("broken-"))
            .hasMessageContaining("invalid value for parameter \"shared_buffers\": \"lots\"");
    }

    @Test
    void shouldKillAndRemoveServerOfDeadJvm() throws Exception {
        final Path base = PostgresServer.defaultBaseDirectory().resolveSibling("embedded-postgres-stale-test");
        final PostgresServer orphan = PostgresServer.builder("orphan").baseDirectory(base).start();
        final Process deadJvm = new ProcessBuilder("true").start();
        deadJvm.waitFor();
        Files.writeString(orphan.dataDirectory().resolveSibling(StaleServers.OWNER_FILE),
            deadJvm.pid() + " " + deadJvm.info().startInstant().map(Object::toString).orElse("?"));

        StaleServers.clean(base);

        assertThat(StaleServers.isRunning(orphan.pid())).isFalse();
        assertThat(orphan.dataDirectory().getParent()).doesNotExist();
        orphan.close();
    }

    private static void connect(final int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(PostgresServer.HOST, port), 1_000);
        }
    }
}
