package io.rdmarepl.testsupport;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PostgresServerIT {
    private static PostgresServer primary;

    @BeforeAll
    static void startPrimary() {
        primary = PostgresServer.primary(Durability.FAST);
    }

    @AfterAll
    static void stopPrimary() {
        if (primary != null) {
            primary.close();
        }
    }

    @Test
    void shouldListenBelowTheEphemeralPortRange() {
        // an ephemeral port could be taken by an outgoing connection before the postmaster binds it
        assertThat(primary.port()).isLessThan(FreePorts.ephemeralLowest());
    }

    @Test
    void shouldRunPostgres17WithLogicalWalAndFastDurability() {
        assertThat(primary.serverVersion()).startsWith("17.");
        assertThat(primary.show("server_version")).isEqualTo(primary.serverVersion());
        assertThat(primary.show("wal_level")).isEqualTo("logical");
        assertThat(primary.show("max_replication_slots")).isEqualTo("10");
        assertThat(primary.show("max_wal_senders")).isEqualTo("10");
        assertThat(primary.show("listen_addresses")).isEqualTo("127.0.0.1");
        assertThat(primary.show("unix_socket_directories")).isEmpty();
        assertThat(primary.durability()).isEqualTo(Durability.FAST);
        assertThat(primary.show("fsync")).isEqualTo("off");
        assertThat(primary.show("synchronous_commit")).isEqualTo("off");
        assertThat(primary.dataDirectory()).startsWith(PostgresServer.defaultBaseDirectory());
    }

    @Test
    void shouldDecodeInsertThroughPgoutputSlot() throws Exception {
        primary.createDatabase("decode_test");
        primary.execute("decode_test",
            "CREATE TABLE account (id int PRIMARY KEY, owner text NOT NULL);" +
            "CREATE PUBLICATION pub FOR TABLE account");
        primary.execute("decode_test", "SELECT pg_create_logical_replication_slot('s', 'pgoutput')");
        // a slot decodes only flushed WAL; FAST servers flush asynchronously, so this commit flushes itself
        primary.execute("decode_test", "SET synchronous_commit = on; INSERT INTO account VALUES (1, 'alice')");

        final List<Character> messageTypes = new ArrayList<>();
        try (Connection connection = primary.connect("decode_test");
            Statement statement = connection.createStatement();
            ResultSet rows = statement.executeQuery(
                "SELECT data FROM pg_logical_slot_peek_binary_changes('s', NULL, NULL, " +
                "'proto_version', '1', 'publication_names', 'pub')")) {
            while (rows.next()) {
                messageTypes.add((char)rows.getBytes(1)[0]);
            }
        }

        // Begin, Relation, Insert, Commit
        assertThat(messageTypes).containsSubsequence('B', 'I', 'C');
        assertThat(messageTypes.get(0)).isEqualTo('B');
        assertThat(messageTypes.get(messageTypes.size() - 1)).isEqualTo('C');
    }

    @Test
    void shouldAcceptLogicalReplicationConnection() throws Exception {
        try (Connection connection = primary.connectForReplication("postgres");
            Statement statement = connection.createStatement();
            ResultSet rows = statement.executeQuery("IDENTIFY_SYSTEM")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getString("dbname")).isEqualTo("postgres");
            assertThat(rows.getString("xlogpos")).matches("[0-9A-F]+/[0-9A-F]+");
        }
    }
}
