package io.rdmarepl.applier.apply;

import io.rdmarepl.applier.schema.SequenceTracker;
import io.rdmarepl.applier.schema.TableMapping;
import io.rdmarepl.format.codec.RecordDecoder;
import io.rdmarepl.format.codec.RecordHandler;
import io.rdmarepl.format.codec.RowChangeView;
import io.rdmarepl.format.codec.TupleView;
import io.rdmarepl.format.codec.Utf8;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * Sends the INSERT rows of one batch as one {@code COPY table (columns) FROM STDIN}, text format: a bulk of inserts
 * (an initial copy's chunks, a bulk load on the primary) costs the replica one statement instead of one executor
 * run per row. The rows are read again from the group's log and written as COPY text into one reused buffer: the
 * same text forms {@link ValueBinder} binds ({@link PgText}), each field escaped ({@code \\ \t \n \r}), NULL as
 * {@code \N}, fields split by a tab, rows ended by a newline. COPY reads every field through the column type's input
 * function, as the statement's {@code ?::type} cast does, and writes identity columns as given (as {@code OVERRIDING
 * SYSTEM VALUE}).
 *
 * <p>Every COPY runs in a savepoint. COPY has no conflict clause: a batch of upserts (its INSERT has {@code ON
 * CONFLICT}) that meets a row already on the replica is rolled back to it and sent as statements instead ({@link
 * #send} returns -1), as is a batch into a table under row-level security, which COPY FROM refuses. Rows a batch
 * {@linkplain BatchingStatement#supersede superseded} are never in it.
 */
final class CopyRows implements RecordHandler {
    /** Buffered COPY data sent once it holds this many bytes. */
    private static final int SEND_AT = 256 << 10;
    private static final byte[] NULL = {'\\', 'N'};
    private static final byte[] TRUE = "true".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] FALSE = "false".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final String UNIQUE_VIOLATION = "23505";
    /** What COPY FROM answers where INSERT works: a table under row-level security for the applier's user. */
    private static final String FEATURE_NOT_SUPPORTED = "0A000";
    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /**
     * A batch that goes as COPY is cut here rather than at {@code apply.batch.max.rows}: COPY streams its rows, but the
     * batch's row offsets and write-set tokens stay in memory until it is sent, and a COPY's error is read only at its
     * end.
     */
    static final int MAX_ROWS = 65_536;

    private final int minRows;
    private final int fallbackSlice;
    private final boolean replicaRole;
    private final ApplierMetrics metrics;
    private final RecordDecoder decoder = new RecordDecoder();
    private final StringBuilder scratch = new StringBuilder(64);
    /** {@link #scratch} as UTF-8. */
    private ByteBuffer encoded = ByteBuffer.allocate(256);
    private byte[] out = new byte[SEND_AT + (64 << 10)];
    private int length;
    private int[] columns;
    private TableMapping mapping;

    /**
     * @param minRows       the fewest rows a batch must hold to go as COPY ({@code apply.copy.min.rows}); 0: never
     * @param fallbackSlice rows a JDBC batch when a COPY of upserts goes as statements ({@code apply.batch.max.rows})
     */
    CopyRows(int minRows, int fallbackSlice, boolean replicaRole, ApplierMetrics metrics) {
        this.minRows = minRows;
        this.replicaRole = replicaRole;
        this.fallbackSlice = fallbackSlice;
        this.metrics = metrics;
    }

    /** Whether a batch of {@code rows} rows of {@code batch}'s shape goes as COPY. */
    boolean takes(BatchingStatement batch, int rows) {
        return rows >= minRows && copyable(batch);
    }

    /**
     * Whether {@code batch}, holding {@code rows} rows, is still filling up to go as COPY, past
     * {@code apply.batch.max.rows}.
     */
    boolean filling(BatchingStatement batch, int rows) {
        return rows >= minRows && rows < MAX_ROWS && copyable(batch);
    }

    /**
     * An INSERT shape, with {@code session_replication_role=replica} (with origin, rules and statement triggers fire,
     * and COPY fires them otherwise than one INSERT a row does), into a table where no trigger or rule fires for the
     * applier (COPY never fires rules).
     */
    private boolean copyable(BatchingStatement batch) {
        return minRows > 0 && replicaRole && batch.shape().copy() != null && !batch.mapping().firesForApplier();
    }

    /** Rows a JDBC batch when a COPY of upserts goes as statements. */
    int fallbackSlice() {
        return fallbackSlice;
    }

    /**
     * Copies the first {@code rows} records of {@code offsets} (inserts of {@code statement}'s shape) into the table.
     *
     * @return the rows copied, or -1 when an upsert met a row already there (nothing written; send them as statements)
     */
    long send(BatchingStatement statement, Connection connection, ByteBuffer log, int[] offsets, int rows, int end)
            throws SQLException {
        CopyInsert copy = statement.shape().copy();
        Savepoint before = connection.setSavepoint();
        try {
            long copied = copy(statement, connection, copy.sql(), log, offsets, rows, end);
            connection.releaseSavepoint(before);
            metrics.copied(copied);
            return copied;
        } catch (SQLException e) {
            String state = SqlErrors.sqlState(e);
            if (copy.upsert() && UNIQUE_VIOLATION.equals(state) || FEATURE_NOT_SUPPORTED.equals(state)) {
                connection.rollback(before);
                metrics.copyFellBack();
                return -1;
            }
            throw e;
        }
    }

    private long copy(BatchingStatement statement, Connection connection, String sql, ByteBuffer log, int[] offsets,
                      int rows, int end) throws SQLException {
        mapping = statement.mapping();
        columns = statement.shape().values();
        length = 0;
        CopyIn in = connection.unwrap(PGConnection.class).getCopyAPI().copyIn(sql);
        try {
            for (int k = 0; k < rows; k++) {
                decoder.decode(log, offsets[k], end - offsets[k], this);
                if (length >= SEND_AT) {
                    in.writeToCopy(out, 0, length);
                    length = 0;
                }
            }
            if (length > 0) {
                in.writeToCopy(out, 0, length);
            }
            return in.endCopy();
        } catch (SQLException | RuntimeException failed) {
            length = 0;
            if (in.isActive()) {
                try {
                    in.cancelCopy();
                } catch (SQLException cancelFailed) {
                    failed.addSuppressed(cancelFailed);
                }
            }
            throw failed;
        }
    }

    @Override
    public void onInsert(RowChangeView insert) {
        TupleView row = insert.newTuple();
        for (int k = 0; k < columns.length; k++) {
            if (k > 0) {
                put((byte) '\t');
            }
            field(row, columns[k]);
        }
        put((byte) '\n');
    }

    private void field(TupleView row, int column) {
        switch (row.tag(column)) {
            case NULL -> put(NULL);
            case BOOL -> put(row.bool(column) ? TRUE : FALSE); // as a bound boolean reads in a text column
            case INT2 -> integer(row.int2(column), column);
            case INT4 -> integer(row.int4(column), column);
            case INT8 -> integer(row.int8(column), column);
            case UNCHANGED_TOAST -> throw new IllegalStateException("an unchanged TOAST value is never copied: column "
                    + column + " should have been left out of the statement");
            case TEXT, JSON, JSONB, ENUM, TEXT_FALLBACK -> escapedUtf8(row.buffer(), row.bytesOffset(column),
                    row.bytesLength(column));
            case BYTEA -> hex(row.buffer(), row.bytesOffset(column), row.bytesLength(column));
            case ARRAY -> {
                scratch.setLength(0);
                escaped(PgText.appendArray(row.array(column), scratch));
            }
            default -> {
                scratch.setLength(0);
                escaped(PgText.appendScalar(row, column, scratch));
            }
        }
    }

    private void integer(long value, int column) {
        long[] holder = mapping.sequenceHolder(column);
        if (holder != null) {
            SequenceTracker.observe(holder, value);
        }
        if (value == Long.MIN_VALUE) {
            for (int i = 0; i < "-9223372036854775808".length(); i++) {
                put((byte) "-9223372036854775808".charAt(i));
            }
            return;
        }
        room(20);
        if (value < 0) {
            out[length++] = '-';
            value = -value;
        }
        int start = length;
        do {
            out[length++] = (byte) ('0' + value % 10);
            value /= 10;
        } while (value != 0);
        for (int i = start, j = length - 1; i < j; i++, j--) {
            byte t = out[i];
            out[i] = out[j];
            out[j] = t;
        }
    }

    /**
     * Appends the UTF-8 bytes of a text value as they are, with COPY's escapes: every byte of a multi-byte character
     * is 0x80 or above, so none is taken for an escaped one. The replica checks the encoding as it reads.
     */
    private void escapedUtf8(ByteBuffer buffer, int offset, int bytes) {
        room(bytes * 2);
        // most values need no escape: copy them in bulk and look for one in the copy (array reads, no bounds calls)
        buffer.get(offset, out, length, bytes);
        int end = length + bytes;
        boolean plain = true;
        for (int i = length; i < end; i++) {
            byte b = out[i];
            if (b == '\\' || b == '\t' || b == '\n' || b == '\r') {
                plain = false;
                break;
            }
        }
        if (plain) {
            length = end;
            return;
        }
        for (int at = offset, stop = offset + bytes; at < stop; at++) {
            byte b = buffer.get(at);
            switch (b) {
                case '\\' -> { out[length++] = '\\'; out[length++] = '\\'; }
                case '\t' -> { out[length++] = '\\'; out[length++] = 't'; }
                case '\n' -> { out[length++] = '\\'; out[length++] = 'n'; }
                case '\r' -> { out[length++] = '\\'; out[length++] = 'r'; }
                default -> out[length++] = b;
            }
        }
    }

    /** Appends a bytea in hex ({@code \\x} and two digits a byte; the backslash escaped for COPY). */
    private void hex(ByteBuffer buffer, int offset, int bytes) {
        room(3 + bytes * 2);
        out[length++] = '\\';
        out[length++] = '\\';
        out[length++] = 'x';
        for (int at = offset, end = offset + bytes; at < end; at++) {
            int b = buffer.get(at) & 0xFF;
            out[length++] = HEX[b >>> 4];
            out[length++] = HEX[b & 0xF];
        }
    }

    /**
     * Appends {@code text} (a text form {@link PgText} wrote) as UTF-8 with COPY's escapes: encoded into a reused
     * buffer by the log format's encoder, then copied as a text value's bytes are.
     */
    private void escaped(CharSequence text) {
        int bytes = Utf8.encodedLength(text);
        if (bytes < 0) {
            // the text came from valid UTF-8, so this cannot happen; a lone surrogate has no UTF-8 form
            throw new IllegalStateException("a lone UTF-16 surrogate in column text: not valid UTF-8 on the source");
        }
        if (encoded.capacity() < bytes) {
            encoded = ByteBuffer.allocate(Math.max(bytes, encoded.capacity() * 2));
        }
        Utf8.encode(text, encoded, 0);
        escapedUtf8(encoded, 0, bytes);
    }

    private void put(byte b) {
        room(1);
        out[length++] = b;
    }

    private void put(byte[] bytes) {
        room(bytes.length);
        System.arraycopy(bytes, 0, out, length, bytes.length);
        length += bytes.length;
    }

    /** Grows the buffer to take {@code bytes} more (a row longer than what a send leaves room for). */
    private void room(int bytes) {
        if (length + bytes > out.length) {
            out = java.util.Arrays.copyOf(out, Math.max(out.length * 2, length + bytes));
        }
    }
}
