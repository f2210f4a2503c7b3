package io.rdmarepl.applier.position;

import io.rdmarepl.format.Lsn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;

/**
 * {@code rdmarepl.applied_position}: written in the same replica transaction as the rows it covers, so
 * after any crash the replica holds exactly the transactions up to the stored commit LSN. Its row per source also keeps
 * what a restarted applier must not forget: the newest epoch its ring was given ({@code epoch}, never lowered), and
 * the epoch at which this replica was promoted ({@code promoted_epoch}, null while it follows the source), written in
 * the promotion's own transaction.
 */
public final class AppliedPositionStore {
    public static final String TABLE = "rdmarepl.applied_position";

    private static final String CREATE = """
            CREATE SCHEMA IF NOT EXISTS rdmarepl;
            CREATE TABLE IF NOT EXISTS rdmarepl.applied_position (
                source text PRIMARY KEY,
                commit_lsn pg_lsn NOT NULL,
                tx_id bigint NOT NULL,
                epoch bigint NOT NULL,
                applied_at timestamptz NOT NULL,
                promoted_epoch bigint);
            DO $$
            BEGIN
                -- a table of an earlier version: ALTER only then (it needs the table's owner, and locks it)
                IF NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = 'rdmarepl'
                               AND table_name = 'applied_position' AND column_name = 'promoted_epoch') THEN
                    ALTER TABLE rdmarepl.applied_position ADD COLUMN promoted_epoch bigint;
                END IF;
            END $$""";
    private static final String READ = """
            SELECT commit_lsn::text, tx_id, epoch, coalesce(promoted_epoch, 0)
              FROM rdmarepl.applied_position WHERE source = ?""";
    /**
     * Flushed to the replica's own WAL whatever the session's synchronous_commit says (a restart after a crash of the
     * replica must find it), without waiting for any synchronous standby of the replica's own: {@code local}, not
     * {@code on}. A row that did not exist yet gets the position nothing was applied at ({@link AppliedPosition#none}).
     */
    private static final String KEEP_EPOCH_AND_COMMIT = """
            SET LOCAL synchronous_commit = local;
            INSERT INTO rdmarepl.applied_position AS p (source, commit_lsn, tx_id, epoch, applied_at, promoted_epoch)
            VALUES (?, '0/0', 0, ?, clock_timestamp(), ?)
            ON CONFLICT (source) DO UPDATE
               SET epoch = greatest(p.epoch, EXCLUDED.epoch), promoted_epoch = EXCLUDED.promoted_epoch;
            COMMIT""";
    static final String WRITE = """
            INSERT INTO rdmarepl.applied_position AS p (source, commit_lsn, tx_id, epoch, applied_at)
            VALUES (?, ?::pg_lsn, ?, ?, clock_timestamp())
            ON CONFLICT (source) DO UPDATE
               SET commit_lsn = EXCLUDED.commit_lsn, tx_id = EXCLUDED.tx_id, epoch = greatest(p.epoch, EXCLUDED.epoch),
                   applied_at = EXCLUDED.applied_at""";

    /** {@link #WRITE} as a statement that writes only when CTE {@code changed} returned a row. */
    private static final String WRITE_WHEN_CHANGED = """
            INSERT INTO rdmarepl.applied_position AS p (source, commit_lsn, tx_id, epoch, applied_at)
            SELECT ?, ?::pg_lsn, ?, ?, clock_timestamp() WHERE EXISTS (SELECT 1 FROM changed)
            ON CONFLICT (source) DO UPDATE
               SET commit_lsn = EXCLUDED.commit_lsn, tx_id = EXCLUDED.tx_id, epoch = greatest(p.epoch, EXCLUDED.epoch),
                   applied_at = EXCLUDED.applied_at""";

    private final String source;

    public AppliedPositionStore(String source) {
        this.source = source;
    }

    /** Creates the schema and table when missing (autocommit connection). */
    public void createIfMissing(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(CREATE);
        }
    }

    public AppliedPosition read(Connection connection) throws SQLException {
        try (PreparedStatement read = connection.prepareStatement(READ)) {
            read.setString(1, source);
            try (ResultSet rows = read.executeQuery()) {
                if (!rows.next()) {
                    return AppliedPosition.none(source);
                }
                return new AppliedPosition(source, Lsn.parse(rows.getString(1)), rows.getLong(2), rows.getLong(3), rows.getLong(4));
            }
        }
    }

    /**
     * Keeps {@code epoch} as the newest the ring was given (a lower one leaves it), says whether this replica is
     * promoted (at {@code promotedEpoch}; 0: it follows), and commits the caller's open transaction with it, in one
     * round trip: a promotion commits the statements that made the replica writable so.
     */
    public void keepEpochAndCommit(Connection connection, long epoch, long promotedEpoch) throws SQLException {
        if (connection.getAutoCommit()) {
            throw new IllegalStateException("keeping the epoch commits the caller's transaction: autocommit is on");
        }
        try (PreparedStatement keep = connection.prepareStatement(KEEP_EPOCH_AND_COMMIT)) {
            keep.setString(1, source);
            keep.setLong(2, epoch);
            if (promotedEpoch > 0) {
                keep.setLong(3, promotedEpoch);
            } else {
                keep.setNull(3, Types.BIGINT);
            }
            keep.execute();
        }
    }

    /**
     * Follows a commit in its own round trip when the replica commits asynchronously: the replica's WAL insert position
     * right after the commit, at or past its commit record, which the durable position waits for the WAL flush to pass,
     * and the flush position. Outside the committed transaction, and in none of its own once the round trip ends.
     */
    public static final String THEN_WAL_POSITIONS =
            ";\nSELECT pg_catalog.pg_current_wal_insert_lsn()::text, pg_catalog.pg_current_wal_flush_lsn()::text";

    /**
     * Prepares the write followed by {@code COMMIT}, which pgjdbc sends in one round trip: the applier commits
     * each group this way, one round trip fewer than a write and then {@link Connection#commit()}. The driver
     * takes the transaction's end from the server's ReadyForQuery, so its next statement begins a new one.
     *
     * @param thenWalPositions the commit is followed by {@link #THEN_WAL_POSITIONS}
     */
    public PreparedStatement prepareWithCommit(Connection connection, boolean thenWalPositions) throws SQLException {
        return connection.prepareStatement(WRITE + ";\nCOMMIT" + (thenWalPositions ? THEN_WAL_POSITIONS : ""));
    }

    /**
     * SQL that runs {@code rowSql} (a single-row statement), writes the position and commits, in one round trip: a
     * group of one row costs one round trip, not two. The position's parameters follow the row's.
     *
     * @param onlyIfChanged {@code rowSql} is an UPDATE or DELETE that must find its row: it runs as a CTE and the
     *                      position is written only if it did, so the statement's update count (0 or 1) tells, and a
     *                      row not found commits nothing
     * @param thenWalPositions the commit is followed by {@link #THEN_WAL_POSITIONS}
     */
    public static String withPositionAndCommit(String rowSql, boolean onlyIfChanged, boolean thenWalPositions) {
        String commit = thenWalPositions ? ";\nCOMMIT" + THEN_WAL_POSITIONS : ";\nCOMMIT";
        return onlyIfChanged
                ? "WITH changed AS (" + rowSql + " RETURNING 1)\n" + WRITE_WHEN_CHANGED + commit
                : rowSql + ";\n" + WRITE + commit;
    }

    /** Binds the position to parameters {@code first} to {@code first + 3} of a {@link #withPositionAndCommit}. */
    public void bind(PreparedStatement prepared, int first, long commitLsn, long txId, long epoch) throws SQLException {
        prepared.setString(first, source);
        prepared.setString(first + 1, Lsn.format(commitLsn));
        prepared.setLong(first + 2, txId);
        prepared.setLong(first + 3, epoch);
    }

    /** Binds the position to a {@link #prepareWithCommit} statement, which the caller runs. */
    public void bind(PreparedStatement prepared, long commitLsn, long txId, long epoch) throws SQLException {
        bind(prepared, 1, commitLsn, txId, epoch);
    }

    public String source() {
        return source;
    }
}
