package io.rdmarepl.harness.rig;

import io.rdmarepl.testsupport.PostgresServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A shipper's replication connections as its primary lists them in {@code pg_stat_replication}. */
public final class WalSenders {
    private WalSenders() {
    }

    /** Every row with {@code applicationName}, oldest first; empty when the primary does not answer. */
    public static List<Map<String, Object>> of(PostgresServer primary, String applicationName) {
        List<Map<String, Object>> rows = new ArrayList<>();
        try (Connection c = primary.connect("postgres");
             PreparedStatement q = c.prepareStatement("SELECT pid, state, sync_state, sync_priority, sent_lsn::text, "
                     + "flush_lsn::text, backend_start::text FROM pg_stat_replication WHERE application_name = ? ORDER BY backend_start")) {
            q.setString(1, applicationName);
            try (ResultSet rs = q.executeQuery()) {
                ResultSetMetaData meta = rs.getMetaData();
                while (rs.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int i = 1; i <= meta.getColumnCount(); i++) {
                        row.put(meta.getColumnLabel(i), rs.getObject(i));
                    }
                    rows.add(row);
                }
            }
        } catch (SQLException e) {
            // the primary is gone: no rows
        }
        return rows;
    }

    /** The row of the connection that streams, or null. */
    public static Map<String, Object> streaming(PostgresServer primary, String applicationName) {
        for (Map<String, Object> walSender : of(primary, applicationName)) {
            if ("streaming".equals(walSender.get("state"))) {
                return walSender;
            }
        }
        return null;
    }
}
