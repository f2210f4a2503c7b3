package io.rdmarepl.coordinator.handover;

import io.rdmarepl.coordinator.config.MemberConfig;
import io.rdmarepl.coordinator.fence.MemberSql;
import io.rdmarepl.format.Lsn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Proves a standby holds everything its primary committed. Once the primary refuses client writes, a
 * transactional logical decoding message (prefix {@value CatchUpMarker#PREFIX}) is committed on it: every client commit
 * precedes the marker in the WAL, the shipper ships the marker as an empty transaction, and a standby whose
 * applied LSN reaches the marker's has applied them all. A lag figure could not tell "caught up" from "the
 * shipper has not seen the last commits yet"; the marker can.
 */
public final class SqlCatchUpMarker implements CatchUpMarker {
    private final MemberSql sql;

    public SqlCatchUpMarker(MemberSql sql) {
        this.sql = sql;
    }

    /**
     * Commits a marker on {@code primary} (which refuses client writes now; this session writes anyway).
     *
     * @return the marker's LSN
     */
    @Override
    public long emit(MemberConfig primary, String why) throws SQLException {
        try (Connection connection = sql.open(primary, "marker"); Statement statement = connection.createStatement();
             PreparedStatement emit = connection.prepareStatement("SELECT pg_logical_emit_message(true, ?, ?)::text")) {
            statement.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE");
            emit.setString(1, PREFIX);
            emit.setString(2, why);
            try (ResultSet rs = emit.executeQuery()) {
                rs.next();
                return Lsn.parse(rs.getString(1));
            }
        }
    }
}
