package io.rdmarepl.shipper.capture;

import io.rdmarepl.format.Lsn;
import io.rdmarepl.shipper.config.InternalSchema;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code rdmarepl.slot_copy} on the primary: the LSN each slot's initial copy was taken at, written when the shipper
 * creates the slot. It is what tells a finished copy from one cut short after a restart. The slot's own confirmed
 * position cannot: once the copy is acknowledged the shipper confirms the end of each acknowledged commit record and,
 * when idle, WAL that holds no published change, so the slot stands past the standbys' durable commit LSN whether or
 * not they hold the copy. The standbys hold it exactly when their durable LSN reached the copy's.
 *
 * <p>The table lives in {@link InternalSchema}, which is never captured, copied or published. A shipper without the
 * privilege to create it logs why and falls back to the slot's confirmed position, which can only err towards copying
 * again.
 */
public final class CopyPoints {
    private static final Logger LOG = LoggerFactory.getLogger(CopyPoints.class);
    static final String TABLE = InternalSchema.NAME + ".slot_copy";
    private static final String CREATE = "CREATE SCHEMA IF NOT EXISTS " + InternalSchema.NAME + ";\n"
            + "CREATE TABLE IF NOT EXISTS " + TABLE + " (slot_name text PRIMARY KEY, copy_lsn pg_lsn NOT NULL,"
            + " recorded_at timestamptz NOT NULL DEFAULT clock_timestamp())";
    private static final String WRITE = "INSERT INTO " + TABLE + " (slot_name, copy_lsn) VALUES (?, ?::pg_lsn)"
            + " ON CONFLICT (slot_name) DO UPDATE SET copy_lsn = EXCLUDED.copy_lsn, recorded_at = clock_timestamp()";

    private CopyPoints() {
    }

    /**
     * Records that {@code slot}'s copy is taken at {@code copyLsn}. The commit is local only: in sync mode this
     * shipper's own walsender is the standby a synchronous commit would wait for, and it is not streaming yet. A
     * failure is logged, naming the table and the cause: the copy goes on, and a restart falls back to the slot.
     */
    public static void record(Connection primary, String slot, long copyLsn) {
        try {
            inLocalCommit(primary, CREATE, WRITE, slot, Lsn.format(copyLsn));
        } catch (SQLException e) {
            LOG.warn("cannot record the copy point of slot {} in {} on the primary ({}): a restart before the next copy "
                    + "decides from the slot's position and may copy again", slot, TABLE, e.getMessage());
        }
    }

    /** The copy point recorded for {@code slot}, if the table and a row for it exist. */
    public static OptionalLong read(Connection primary, String slot) throws SQLException {
        try (PreparedStatement read = primary.prepareStatement("SELECT copy_lsn::text FROM " + TABLE + " WHERE slot_name = ?")) {
            read.setString(1, slot);
            try (ResultSet rs = read.executeQuery()) {
                return rs.next() ? OptionalLong.of(Lsn.parse(rs.getString(1))) : OptionalLong.empty();
            }
        } catch (SQLException e) {
            if ("42P01".equals(e.getSQLState())) { // no table: no copy was ever recorded on this primary
                return OptionalLong.empty();
            }
            throw e;
        }
    }

    /** Forgets {@code slot}'s copy point, when the slot is dropped. */
    static void forget(Connection primary, String slot) throws SQLException {
        if (read(primary, slot).isPresent()) {
            inLocalCommit(primary, null, "DELETE FROM " + TABLE + " WHERE slot_name = ?", slot);
        }
    }

    /** Runs {@code ddl} (if any) and {@code dml} in one transaction whose commit waits for no synchronous standby. */
    private static void inLocalCommit(Connection primary, String ddl, String dml, String... parameters) throws SQLException {
        boolean autoCommit = primary.getAutoCommit();
        primary.setAutoCommit(false);
        try (Statement statement = primary.createStatement(); PreparedStatement write = primary.prepareStatement(dml)) {
            statement.execute("SET LOCAL synchronous_commit = local");
            if (ddl != null) {
                statement.execute(ddl);
            }
            for (int i = 0; i < parameters.length; i++) {
                write.setString(i + 1, parameters[i]);
            }
            write.executeUpdate();
            primary.commit();
        } catch (SQLException e) {
            primary.rollback();
            throw e;
        } finally {
            primary.setAutoCommit(autoCommit);
        }
    }
}
