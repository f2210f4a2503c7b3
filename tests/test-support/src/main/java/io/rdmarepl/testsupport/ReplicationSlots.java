package io.rdmarepl.testsupport;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** Waiting for a replication slot to be streamed from: the moment changes start reaching a consumer. */
public final class ReplicationSlots {
    private ReplicationSlots() {
    }

    /**
     * @throws IllegalStateException naming the slot and the server when it is not active within {@code timeout}
     */
    public static void awaitActive(PostgresServer server, String slot, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try (Connection c = server.connect("postgres");
                 PreparedStatement query = c.prepareStatement("SELECT active FROM pg_replication_slots WHERE slot_name = ?")) {
                query.setString(1, slot);
                try (ResultSet rs = query.executeQuery()) {
                    if (rs.next() && rs.getBoolean(1)) {
                        return;
                    }
                }
            } catch (SQLException e) {
                throw new IllegalStateException("cannot read replication slot " + slot + " on " + server + ": " + e.getMessage(), e);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
        throw new IllegalStateException("replication slot " + slot + " on " + server + " not active within " + timeout.toMillis() + " ms");
    }
}
