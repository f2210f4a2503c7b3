package io.rdmarepl.testsupport;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;

/** Waiting for a replication slot to be streamed from: the moment changes start reaching a consumer. */
public final class ReplicationSlots {
    private ReplicationSlots() {
    }

    /**
     * @throws AssertionError naming the slot and the server when it is not active within {@code timeout}
     */
    public static void awaitActive(PostgresServer server, String slot, Duration timeout) {
        Await.until("replication slot " + slot + " on " + server + " active", timeout, () -> {
            try (Connection c = server.connect("postgres");
                 PreparedStatement query = c.prepareStatement("SELECT active FROM pg_replication_slots WHERE slot_name = ?")) {
                query.setString(1, slot);
                try (ResultSet rs = query.executeQuery()) {
                    return rs.next() && rs.getBoolean(1);
                }
            }
        });
    }
}
