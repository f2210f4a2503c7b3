package io.rdmarepl.applier.apply;

import io.rdmarepl.applier.schema.TableMapping;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * A prepared statement of one {@link StatementShape} with its pending JDBC batch. {@link #flush()} sends
 * the batch (pgjdbc pipelines it) and counts rows an UPDATE or DELETE did not find; each entry remembers the
 * offset of the record it came from, so the first such row can be named (a primitive array, reused).
 */
final class BatchingStatement implements AutoCloseable {
    private final StatementShape shape;
    private final TableMapping mapping;
    private final PreparedStatement statement;
    private int pending;
    private int[] recordOffsets = new int[16];
    private int firstMissingOffset = -1;
    private int flushed;
    private int slot = -1;

    BatchingStatement(Connection connection, TableMapping mapping, StatementShape shape) throws SQLException {
        this.mapping = mapping;
        this.shape = shape;
        this.statement = connection.prepareStatement(shape.sql());
    }

    StatementShape shape() {
        return shape;
    }

    /** The table mapping the shape was built from (column indexes of its rows refer to it). */
    TableMapping mapping() {
        return mapping;
    }

    PreparedStatement statement() {
        return statement;
    }

    /** Adds the bound row; {@code recordOffset} is where its record starts in the group's log. */
    void addBatch(int recordOffset) throws SQLException {
        statement.addBatch();
        if (pending == recordOffsets.length) {
            recordOffsets = java.util.Arrays.copyOf(recordOffsets, pending * 2);
        }
        recordOffsets[pending++] = recordOffset;
    }

    /** Position of this batch in the group's flush order, or -1 while it is not planned. */
    int slot() {
        return slot;
    }

    void slot(int slot) {
        this.slot = slot;
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
        flushed = rows;
        firstMissingOffset = -1;
        int[] counts = statement.executeBatch();
        int missing = 0;
        if (shape.findsOneRow()) {
            for (int k = 0; k < counts.length && k < rows; k++) {
                if (counts[k] == 0) {
                    if (missing++ == 0) {
                        firstMissingOffset = recordOffsets[k];
                    }
                }
            }
        }
        return missing;
    }

    /** The record offsets of the rows the last {@link #flush()} sent (the first {@link #flushedRows()}). */
    int[] recordOffsets() {
        return recordOffsets;
    }

    int flushedRows() {
        return flushed;
    }

    /** After a {@link #flush()} that found rows missing: the record offset of the first, else -1. */
    int firstMissingOffset() {
        return firstMissingOffset;
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
