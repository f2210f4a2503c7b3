package io.rdmarepl.shipper.capture.pgoutput;

import io.rdmarepl.format.Lsn;
import io.rdmarepl.testsupport.PostgresServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Servers, slots and waits shared by the replication connection ITs. Every wait has a deadline. */
final class Fixtures {
    static final Duration DEADLINE = Duration.ofSeconds(20);

    private Fixtures() {
    }

    /** A pg_hba.conf holding exactly {@code rules}, for the server setting {@code hba_file}. */
    static Path hbaFile(Path directory, String... rules) throws IOException {
        return Files.writeString(directory.resolve("pg_hba.conf"), String.join("\n", rules) + "\n");
    }

    static ReplicationEndpoint endpoint(PostgresServer server, String user) {
        return ReplicationEndpoint.of(PostgresServer.HOST, server.port(), "postgres", user)
            .withSsl(SslMode.DISABLE, null);
    }

    /** pgoutput options: protocol 4 (PostgreSQL 17), the publication, logical messages, streaming of large transactions. */
    static Map<String, String> pgoutputOptions(String publication) {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("proto_version", "4");
        options.put("publication_names", ReplicationCommands.publicationNames(List.of(publication)));
        options.put("messages", "true");
        options.put("streaming", "on");
        return options;
    }

    /** Opens a connection, creates a logical slot (no snapshot) and starts streaming it. */
    static ReplicationConnection startStreaming(ReplicationEndpoint endpoint, String slot, String publication)
        throws ReplicationException {
        ReplicationConnection connection = ReplicationConnection.open(endpoint);
        try {
            connection.simpleQuery("CREATE_REPLICATION_SLOT " + slot + " LOGICAL pgoutput (SNAPSHOT 'nothing')");
            connection.startLogical(slot, 0L, pgoutputOptions(publication));
            return connection;
        } catch (ReplicationException | RuntimeException ex) {
            connection.close();
            throw ex;
        }
    }

    /** Waits until {@code condition} holds (test-support's {@link io.rdmarepl.testsupport.Await}). */
    static void await(String what, Duration timeout, io.rdmarepl.testsupport.Await.Condition condition) {
        io.rdmarepl.testsupport.Await.until(what, timeout, condition);
    }

    /** The slot's confirmed_flush_lsn, 0 when unset. */
    static long confirmedFlush(PostgresServer server, String slot) {
        String text = queryOne(server, "SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = ?", slot);
        return text == null ? 0 : Lsn.parse(text);
    }

    static void awaitConfirmedFlush(PostgresServer server, String slot, long atLeast, Duration timeout) {
        await("slot " + slot + " confirmed_flush_lsn reaches " + Lsn.format(atLeast), timeout,
            () -> Lsn.compare(confirmedFlush(server, slot), atLeast) >= 0);
    }

    /** Drops a slot once no walsender holds it any more. */
    static void dropSlot(PostgresServer server, String slot) {
        await("slot " + slot + " inactive", DEADLINE,
            () -> !"true".equals(queryOne(server, "SELECT active::text FROM pg_replication_slots WHERE slot_name = ?", slot)));
        server.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '" + slot + "'");
    }

    static String queryOne(PostgresServer server, String sql, Object... parameters) {
        try (Connection connection = server.connect("postgres");
             PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? rows.getString(1) : null;
            }
        } catch (SQLException ex) {
            throw new IllegalStateException(sql + " failed on " + server, ex);
        }
    }
}
