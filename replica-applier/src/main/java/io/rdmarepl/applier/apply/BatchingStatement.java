package io.rdmarepl.applier.apply;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * A prepared statement of one {@link StatementShape} with its pending JDBC batch. {@link #flush()} sends
 * the batch (pgjdbc pipelines it) and counts rows an UPDATE or DELETE did not find.
 */
final class BatchingStatement implements AutoCloseable {
    private final StatementShape shape;
    private final PreparedStatement statement;
    private int pending;

    BatchingStatement(Connection connection, StatementShape shape) throws SQLException {
        this.shape = shape;
        this.statement = connection.prepareStatement(shape.sql());
    }

    StatementShape shape() {
        return shape;
    }

    PreparedStatement statement() {
        return statement;
    }

    void addBatch() throws SQLException {
        statement.addBatch();
        pending++;
    }

    int pending() {
        return pending;
    }

    /**
     * Sends the pending rows.
     *
     * @return rows an UPDATE or DELETE did not find (0 for inserts)
     */
    int flush() throws SQLException {
        if (pending == 0) {
            return 0;
        }
        int rows = pending;
        pending = 0;
        int[] counts = statement.executeBatch();
        int missing = 0;
        if (shape.findsOneRow()) {
            for (int k = 0; k < counts.length && k < rows; k++) {
                if (counts[k] == 0) {
                    missing++;
                }
            }
        }
        return missing;
    }

    /** Drops pending rows (after a failed transaction). */
    void discard() {
        pending = 0;
        try {
            statement.clearBatch();
        } catch (SQLException ignored) {
            // the connection is being thrown away or rolled back; nothing to keep
        }
    }

    @Override
    public void close() {
        try {
            statement.close();
        } catch (SQLException ignored) {
            // closing a statement of a broken connection
        }
    }
}
