package io.rdmarepl.shipper.capture.pgoutput;

import io.rdmarepl.format.RecordCapacityException;
import io.rdmarepl.format.codec.RecordEncoder;
import io.rdmarepl.format.codec.RowWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;
import org.postgresql.copy.CopyOut;

/**
 * One session of an initial copy, on a thread of its own: a connection to the primary inside the slot's exported
 * snapshot ({@code REPEATABLE READ, READ ONLY; SET TRANSACTION SNAPSHOT}), taking tables from the shared queue until
 * none is left. Each table is read with {@code COPY ... TO STDOUT} (text format), every row split by
 * {@link CopyTextRow} and encoded as an Insert straight into the session's current {@link CopyChunk}; a chunk that
 * reached {@code snapshot.chunk.bytes} goes to the publisher, and the session goes on in its second chunk meanwhile.
 * A chunk may hold the end of one table and the start of the next. Nothing is allocated per row here (pgjdbc's
 * {@link CopyOut#readFromCopy()} returns each row as a new array).
 *
 * <pre>
 *   primary --COPY--> [rdmarepl-copy-N] parse, encode --chunk--> filled queue --> publisher (Disruptor, one producer)
 *                            ^                                                         |
 *                            +------------------- free list (2 chunks) <---------------+
 * </pre>
 */
final class CopySession implements Runnable {
    /** The output settings of the replication connection (pgoutput's text), so values are the same server text. */
    private static final String SETTINGS = "SET DateStyle = ISO; SET IntervalStyle = postgres; SET extra_float_digits = 3;"
            + " SET bytea_output = hex; SET TimeZone = 'UTC'; SET client_encoding = 'UTF8'";

    private final Connection connection;
    private final Queue<CopyProgress.Table> tables;
    private final BlockingQueue<CopyChunk> filled;
    private final BlockingQueue<CopyChunk> free = new ArrayBlockingQueue<>(2);
    private final int chunkBytes;
    private final RecordEncoder encoder = new RecordEncoder();
    private final CopyTextRow row = new CopyTextRow();
    private ByteBuffer text = ByteBuffer.wrap(new byte[0]);
    private CopyChunk chunk;
    private CopyTable copying;
    /** The table this session copied last, once {@link #copying} is done with it. */
    private CopyTable lastCopied;
    private Thread thread;

    private CopySession(Connection connection, Queue<CopyProgress.Table> tables, BlockingQueue<CopyChunk> filled, int chunkBytes) {
        this.connection = connection;
        this.tables = tables;
        this.filled = filled;
        this.chunkBytes = chunkBytes;
        free.add(new CopyChunk(chunkBytes, free));
        free.add(new CopyChunk(chunkBytes, free));
    }

    /**
     * Pins the session's output settings and imports {@code snapshotName}: from here on the connection sees the primary
     * as of the slot's consistent point. Closes the connection when that fails.
     *
     * @param tables shared with the other sessions: each takes the next table when it finished one
     * @param filled where full chunks, and the session's end, go to the publisher
     */
    static CopySession open(Connection connection, String snapshotName, Queue<CopyProgress.Table> tables,
                            BlockingQueue<CopyChunk> filled, int chunkBytes) throws SQLException {
        try (Statement session = connection.createStatement()) {
            session.execute(SETTINGS);
            connection.setAutoCommit(false);
            session.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
            session.execute("SET TRANSACTION SNAPSHOT '" + snapshotName.replace("'", "''") + "'");
        } catch (SQLException | RuntimeException e) {
            closeQuietly(connection);
            throw e;
        }
        return new CopySession(connection, tables, filled, chunkBytes);
    }

    /** The session's connection, inside the snapshot (the publisher reads the catalog through the first one). */
    Connection connection() {
        return connection;
    }

    /** Runs the session on a thread of its own; {@link #run()} is the session on the caller's thread. */
    void start(String threadName) {
        thread = new Thread(this, threadName);
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void run() {
        Throwable failure = null;
        try {
            chunk = free.take();
            CopyProgress.Table next;
            while ((next = tables.poll()) != null) {
                copy(next);
            }
            if (chunk.length() > 0) {
                filled.put(chunk);
            }
            chunk = null;
            connection.commit();
        } catch (InterruptedException e) {
            failure = e;
            Thread.currentThread().interrupt();
        } catch (SQLException e) {
            // a session that fails once its last table was read (its commit, or the socket's buffers held the rest)
            // names that table too: the operator's question is which copy broke
            String what = copying != null ? "initial copy of " + copying.qualified()
                    : lastCopied != null ? "initial copy of " + lastCopied.qualified() + ": its session, once the table was read"
                    : null;
            failure = what == null ? e : new SQLException(what + ": " + e.getMessage(), e.getSQLState(), e);
        } catch (RuntimeException | Error e) {
            failure = e;
        } finally {
            closeQuietly(connection);
            filled.add(CopyChunk.end(failure)); // room for it: at most two chunks and this marker per session
        }
    }

    private void copy(CopyProgress.Table progress) throws SQLException, InterruptedException {
        CopyTable t = progress.table();
        copying = t;
        progress.started(System.nanoTime());
        int columns = t.columns().size();
        long rows = 0;
        long bytes = 0;
        CopyManager reader = connection.unwrap(PGConnection.class).getCopyAPI();
        CopyOut out = reader.copyOut(t.copySql());
        byte[] line;
        while ((line = out.readFromCopy()) != null) {
            row.parse(line, line.length);
            if (row.fields() != columns) {
                throw new IllegalStateException("initial copy of " + t.qualified() + ": a row has " + row.fields()
                        + " fields, the table " + columns + " columns");
            }
            if (text.array() != row.text()) {
                text = ByteBuffer.wrap(row.text());
            }
            int length = encodeInsert(t);
            chunk.advance(length);
            bytes += length;
            rows++;
            if ((rows & (CopyProgress.PUBLISH_EVERY_ROWS - 1)) == 0) {
                progress.progressed(rows, bytes);
            }
            if (chunk.length() >= chunkBytes) {
                filled.put(chunk);
                chunk = free.take();
            }
        }
        progress.finished(rows, bytes, System.nanoTime());
        lastCopied = t;
        copying = null;
    }

    /** Encodes the parsed {@link #row} as an Insert at the end of the chunk, growing it for a row larger than its room. */
    private int encodeInsert(CopyTable t) {
        while (true) {
            try {
                return encodeInsert(t, chunk.buffer(), chunk.length(), chunk.room());
            } catch (RecordCapacityException e) {
                chunk.grow();
            }
        }
    }

    private int encodeInsert(CopyTable t, ByteBuffer target, int offset, int room) {
        RowWriter writer = encoder.startInsert(target, offset, room, t.oid());
        for (int c = 0; c < row.fields(); c++) {
            if (row.isNull(c)) {
                writer.putNull();
                continue;
            }
            int start = row.start(c);
            int length = row.end(c) - start;
            switch (ColumnKind.ofTypeOid(t.typeOids()[c])) {
                case BOOL -> writer.putBool(length == 1 && row.text()[start] == 't');
                case INT2 -> writer.putInt2((short) integer(t, c, start, length));
                case INT4 -> writer.putInt4((int) integer(t, c, start, length));
                case INT8 -> writer.putInt8(integer(t, c, start, length));
                default -> writer.putTextFallback(t.typeOids()[c], text, start, length);
            }
        }
        return writer.finish();
    }

    private long integer(CopyTable t, int column, int start, int length) {
        byte[] b = row.text();
        int i = start;
        int end = start + length;
        boolean negative = length > 0 && b[i] == '-';
        if (negative) {
            i++;
        }
        if (i == end) {
            throw notInteger(t, column, start, length);
        }
        long value = 0;
        for (; i < end; i++) {
            int digit = b[i] - '0';
            if (digit < 0 || digit > 9) {
                throw notInteger(t, column, start, length);
            }
            value = value * 10 - digit; // accumulate negatively: Long.MIN_VALUE has no positive twin
        }
        return negative ? value : -value;
    }

    private IllegalStateException notInteger(CopyTable t, int column, int start, int length) {
        return new IllegalStateException("initial copy of " + t.qualified() + ", column " + t.columns().get(column)
                + ": '" + new String(row.text(), start, length, StandardCharsets.UTF_8) + "' is not an integer");
    }

    /**
     * Stops the session if it still runs (the copy failed or was closed elsewhere): its socket is closed under it, so a
     * read blocked on the primary ends too, then waits for its thread. Closes the connection of a session never started.
     */
    void abort() {
        Thread running = thread;
        if (running == null) {
            closeQuietly(connection);
            return;
        }
        if (running.isAlive()) {
            try {
                connection.abort(Runnable::run);
            } catch (SQLException e) {
                // closed already
            }
            running.interrupt();
        }
        try {
            running.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException e) {
            // the session is over either way
        }
    }
}
