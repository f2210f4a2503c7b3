package io.rdmarepl.applier.apply;

import io.rdmarepl.applier.position.AppliedPositionStore;
import io.rdmarepl.applier.schema.TableMapping;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * A prepared statement of one {@link StatementShape} with its pending rows, kept as the offsets of their records in
 * the group's log (a primitive array, reused). {@link #flush} binds the rows still live, sends them as one JDBC batch
 * (pgjdbc pipelines it) and counts rows an UPDATE or DELETE did not find; afterwards {@link #recordOffsets()} holds
 * the records sent, in order, so the first such row can be named. A row {@link #supersede superseded} by a later
 * change of the same row in the same batch is never sent.
 */
final class BatchingStatement implements AutoCloseable {
    private final StatementShape shape;
    private final TableMapping mapping;
    private final Connection connection;
    private final PreparedStatement statement;
    private PreparedStatement withCommit;
    /** The shape's multi-row statements by size class, prepared when first used. */
    private PreparedStatement[] multiRow;
    /** Rows a statement of the last multi-row bind holds. */
    private int multiRowChunk;
    private PreparedStatement find;
    private int pending;
    private int[] recordOffsets = new int[16];
    private int firstMissingOffset = -1;
    private int flushed;
    private boolean sentAsCopy;
    private int slot = -1;
    /** The last {@link #stage}: its rows, whether many a statement, and its first entry in the pipeline. */
    private int stagedRows;
    private boolean stagedMultiRow;
    private int stagedAt;

    BatchingStatement(Connection connection, TableMapping mapping, StatementShape shape) throws SQLException {
        this.mapping = mapping;
        this.shape = shape;
        this.connection = connection;
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

    /**
     * Adds a row; {@code recordOffset} is where its record starts in the group's log.
     *
     * @return the row's entry index in this batch, for {@link #supersede}
     */
    int add(int recordOffset) {
        if (pending == recordOffsets.length) {
            recordOffsets = java.util.Arrays.copyOf(recordOffsets, pending * 2);
        }
        recordOffsets[pending] = recordOffset;
        return pending++;
    }

    /** Drops entry {@code entry}: a later entry of this batch writes the same row with the same columns. */
    void supersede(int entry) {
        recordOffsets[entry] = -1;
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
     * Binds and sends the pending rows still live, read from {@code log} (records end before {@code end}).
     *
     * @param copy        sends many INSERT rows as one COPY ({@link CopyRows#takes})
     * @param manyRows    an UPDATE shape may go {@link MultiRowUpdate many rows a statement}
     * @param nameMissing find the first row not found (else only count them)
     * @return rows an UPDATE or DELETE did not find (0 for inserts)
     */
    int flush(ByteBuffer log, int end, RowBinder binder, CopyRows copy, boolean manyRows, boolean nameMissing)
            throws SQLException {
        if (pending == 0) {
            return 0;
        }
        int rows = compactLiveRows();
        if (manyRows && goesMultiRow(rows)) {
            return missingMultiRow(bindMultiRow(log, end, binder, rows).executeBatch(), 0, log, end, binder, rows, nameMissing);
        }
        flushed = rows;
        if (copy.takes(this, rows)) {
            sentAsCopy = true;
            if (copy.send(this, connection, log, recordOffsets, rows, end) >= 0) {
                return 0;
            }
            sentAsCopy = false;
            sendInSlices(log, end, binder, rows, copy.fallbackSlice());
            return 0;
        }
        return missingRows(bindRows(log, end, binder, rows).executeBatch(), 0, rows);
    }

    /** Whether {@link #flush} would send the pending rows as COPY: such a batch cannot join a {@link BatchPipeline}. */
    boolean goesAsCopy(CopyRows copy) {
        int live = 0;
        for (int k = 0; k < pending; k++) {
            if (recordOffsets[k] >= 0) {
                live++;
            }
        }
        return live > 0 && copy.takes(this, live);
    }

    /**
     * As {@link #flush}, but the bound rows join {@code pipeline} instead of going at once ({@link #goesAsCopy} must be
     * false); once the pipeline ran, {@link #missing} reads their update counts.
     */
    void stage(ByteBuffer log, int end, RowBinder binder, boolean manyRows, BatchPipeline pipeline) throws SQLException {
        stagedRows = 0;
        if (pending == 0) {
            return;
        }
        int rows = compactLiveRows();
        stagedMultiRow = manyRows && goesMultiRow(rows);
        stagedAt = pipeline.size();
        PreparedStatement bound = stagedMultiRow ? bindMultiRow(log, end, binder, rows) : bindRows(log, end, binder, rows);
        flushed = rows;
        stagedRows = rows;
        pipeline.take(bound);
    }

    /**
     * After the pipeline of the last {@link #stage} ran: the rows an UPDATE or DELETE did not find, from the
     * pipeline's update counts.
     */
    int missing(int[] counts, ByteBuffer log, int end, RowBinder binder, boolean nameMissing) throws SQLException {
        if (stagedRows == 0) {
            return 0;
        }
        return stagedMultiRow ? missingMultiRow(counts, stagedAt, log, end, binder, stagedRows, nameMissing)
                : missingRows(counts, stagedAt, stagedRows);
    }

    /** Moves the live pending rows to the front of {@link #recordOffsets}; their number. */
    private int compactLiveRows() {
        int rows = 0;
        flushed = 0;
        sentAsCopy = false;
        for (int k = 0; k < pending; k++) {
            int offset = recordOffsets[k];
            if (offset >= 0) {
                recordOffsets[rows++] = offset;
            }
        }
        pending = 0;
        firstMissingOffset = -1;
        return rows;
    }

    private boolean goesMultiRow(int rows) {
        return shape.multiRow() != null && rows >= MultiRowUpdate.MIN_ROWS;
    }

    /** Binds the {@code rows} live rows, one JDBC batch entry each. */
    private PreparedStatement bindRows(ByteBuffer log, int end, RowBinder binder, int rows) throws SQLException {
        for (int k = 0; k < rows; k++) {
            binder.add(this, log, recordOffsets[k], end);
        }
        flushed = rows;
        return statement;
    }

    /** Counts the rows, one entry each from {@code counts[from]} on, that found no row; names the first. */
    private int missingRows(int[] counts, int from, int rows) {
        int missing = 0;
        if (shape.findsOneRow()) {
            for (int k = 0; k < rows && from + k < counts.length; k++) {
                if (counts[from + k] == 0) {
                    if (missing++ == 0) {
                        firstMissingOffset = recordOffsets[k];
                    }
                }
            }
        }
        return missing;
    }

    /**
     * Sends the {@code rows} live inserts (at the front of {@link #recordOffsets}) as statements, {@code slice} rows a
     * JDBC batch: a COPY of upserts that met a row may hold far more rows than one batch should bind at once.
     */
    private void sendInSlices(ByteBuffer log, int end, RowBinder binder, int rows, int slice) throws SQLException {
        for (int from = 0; from < rows; from += slice) {
            for (int k = from, to = Math.min(rows, from + slice); k < to; k++) {
                binder.add(this, log, recordOffsets[k], end);
            }
            statement.executeBatch();
        }
    }

    /** Binds the {@code rows} live rows (at the front of {@link #recordOffsets}) many a statement, one entry a chunk. */
    private PreparedStatement bindMultiRow(ByteBuffer log, int end, RowBinder binder, int rows) throws SQLException {
        MultiRowUpdate multi = shape.multiRow();
        if (multiRow == null) {
            multiRow = new PreparedStatement[multi.sizeClasses()];
        }
        int sizeClass = multi.sizeClassFor(rows);
        PreparedStatement sized = multiRow[sizeClass];
        if (sized == null) {
            sized = multiRow[sizeClass] = connection.prepareStatement(multi.sql(sizeClass));
        }
        int chunk = MultiRowUpdate.rows(sizeClass);
        for (int start = 0; start < rows; start += chunk) {
            for (int k = 0; k < chunk; k++) {
                int row = Math.min(start + k, rows - 1); // a short last chunk repeats its last row
                binder.bind(this, sized, log, recordOffsets[row], end, 1 + k * multi.perRow(), false);
            }
            sized.addBatch();
        }
        multiRowChunk = chunk;
        flushed = rows;
        return sized;
    }

    /** The rows of chunks {@code counts[from]} on that updated fewer rows than they held; names the first. */
    private int missingMultiRow(int[] counts, int from, ByteBuffer log, int end, RowBinder binder, int rows,
                                boolean nameMissing) throws SQLException {
        int size = multiRowChunk;
        int missing = 0;
        for (int chunk = 0, chunks = (rows + size - 1) / size; chunk < chunks; chunk++) {
            int start = chunk * size;
            int expected = Math.min(size, rows - start);
            int count = from + chunk < counts.length ? counts[from + chunk] : -1;
            if (count >= 0 && count < expected) {
                missing += expected - count;
                if (firstMissingOffset < 0 && nameMissing) {
                    firstMissingOffset = firstNotFound(log, end, binder, start, start + expected);
                }
            }
        }
        return missing;
    }

    /** The record offset of the first of rows {@code from..to} whose key finds no row (after the update ran). */
    private int firstNotFound(ByteBuffer log, int end, RowBinder binder, int from, int to) throws SQLException {
        if (find == null) {
            find = connection.prepareStatement(shape.multiRow().findSql());
        }
        for (int row = from; row < to; row++) {
            binder.bind(this, find, log, recordOffsets[row], end, 1, true);
            try (java.sql.ResultSet found = find.executeQuery()) {
                if (!found.next()) {
                    return recordOffsets[row];
                }
            }
        }
        return recordOffsets[from];
    }

    /**
     * Sends the single pending row, the applied position and COMMIT in one round trip
     * ({@link AppliedPositionStore#withPositionAndCommit}).
     *
     * @param onlyIfFound an UPDATE or DELETE whose row must exist: if it does not, nothing is written
     * @return rows an UPDATE or DELETE did not find (0 or 1)
     */
    int sendWithPositionAndCommit(ByteBuffer log, int end, RowBinder binder, AppliedPositionStore positions,
                                  CommitWalPositions commits, long commitLsn, long txId, long epoch, boolean onlyIfFound)
            throws SQLException {
        if (pending != 1 || recordOffsets[0] < 0) {
            throw new IllegalStateException("one pending row expected, not " + pending);
        }
        boolean conditional = onlyIfFound && shape.findsOneRow();
        if (withCommit == null) {
            withCommit = connection.prepareStatement(AppliedPositionStore.withPositionAndCommit(shape.sql(), conditional,
                    commits.reads()));
        }
        pending = 0;
        flushed = 0;
        sentAsCopy = false;
        firstMissingOffset = -1;
        binder.bind(this, withCommit, log, recordOffsets[0], end);
        positions.bind(withCommit, shape.values().length + shape.where().length + 1, commitLsn, txId, epoch);
        flushed = 1;
        int count = commits.execute(withCommit);
        if (shape.findsOneRow() && count == 0) {
            firstMissingOffset = recordOffsets[0];
            return 1;
        }
        return 0;
    }

    /** The record offsets of the rows the last {@link #flush()} sent (the first {@link #flushedRows()}). */
    int[] recordOffsets() {
        return recordOffsets;
    }

    int flushedRows() {
        return flushed;
    }

    /** The last {@link #flush} sent its rows as one COPY (an error then names the row by its line). */
    boolean sentAsCopy() {
        return sentAsCopy;
    }

    /** After a {@link #flush()} that found rows missing: the record offset of the first, else -1. */
    int firstMissingOffset() {
        return firstMissingOffset;
    }

    /** Drops pending rows (after a failed transaction). */
    void discard() {
        pending = 0;
        try {
            if (multiRow != null) {
                for (PreparedStatement sized : multiRow) {
                    if (sized != null) {
                        sized.clearBatch();
                    }
                }
            }
            statement.clearBatch();
        } catch (SQLException ignored) {
            // the connection is being thrown away or rolled back; nothing to keep
        }
    }

    @Override
    public void close() {
        closeQuietly(withCommit);
        if (multiRow != null) {
            for (PreparedStatement sized : multiRow) {
                closeQuietly(sized);
            }
        }
        closeQuietly(find);
        closeQuietly(statement);
    }

    private static void closeQuietly(PreparedStatement prepared) {
        try {
            if (prepared != null) {
                prepared.close();
            }
        } catch (SQLException ignored) {
            // closing a statement of a broken connection
        }
    }
}
