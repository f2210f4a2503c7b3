package io.rdmarepl.applier.apply;

import io.rdmarepl.format.Lsn;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Runs a session's position-and-commit statements and keeps the replica's WAL insert and flush positions that follow
 * each commit in the same round trip ({@link io.rdmarepl.applier.position.AppliedPositionStore#THEN_WAL_POSITIONS}),
 * when the replica commits asynchronously ({@code apply.synchronous.commit=off}): the durable position waits for the
 * replica's WAL flush to pass the commit's insert position. Asked for separately, the insert position cost two round
 * trips per group (the query and its transaction's end), which a loaded host pays in scheduling delays, and the flush
 * position came only with the durability poll.
 */
final class CommitWalPositions {
    private final boolean reads;
    private long insertLsn;
    private long flushLsn;
    private long readAtNs;

    /** @param reads the commit statements end with the WAL positions' query */
    CommitWalPositions(boolean reads) {
        this.reads = reads;
    }

    boolean reads() {
        return reads;
    }

    /**
     * Runs {@code statement} (a row or the position, then COMMIT, then with {@link #reads} the WAL positions).
     *
     * @return the update count of its first statement
     */
    int execute(PreparedStatement statement) throws SQLException {
        int count = statement.execute() ? -1 : statement.getUpdateCount();
        if (!reads) {
            return count;
        }
        while (true) {
            if (statement.getMoreResults()) {
                try (ResultSet rows = statement.getResultSet()) {
                    rows.next();
                    insertLsn = Lsn.parse(rows.getString(1));
                    flushLsn = Lsn.parse(rows.getString(2));
                    readAtNs = System.nanoTime();
                }
                return count;
            }
            if (statement.getUpdateCount() == -1) {
                throw new SQLException("a commit statement returned no WAL positions");
            }
        }
    }

    /**
     * The insert position read after a commit that ran at or after {@code sinceNs}, or 0 when none did (the group
     * committed another way, or on another session): the caller asks the replica then.
     */
    long insertLsnSince(long sinceNs) {
        return readSince(sinceNs) ? insertLsn : 0;
    }

    /** The flush position read with {@link #insertLsnSince}, or 0. */
    long flushLsnSince(long sinceNs) {
        return readSince(sinceNs) ? flushLsn : 0;
    }

    private boolean readSince(long sinceNs) {
        return insertLsn != 0 && readAtNs - sinceNs >= 0;
    }
}
