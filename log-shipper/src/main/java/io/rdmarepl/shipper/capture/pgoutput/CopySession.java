package io.rdmarepl.shipper.capture.pgoutput;

import io.rdmarepl.format.codec.CopyChunkDescriptor;
import io.rdmarepl.format.codec.RecordEncoder;
import java.nio.ByteBuffer;
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
 * none is left. Each table is read with {@code COPY ... TO STDOUT} (text format), and its rows go unparsed into
 * CopyChunk records ({@link CopyChunkDescriptor}) of up to {@link #RECORD_TEXT_BYTES} of text, written straight into
 * the session's current {@link CopyChunk}: a row is appended as the server sent it, and the record's fields are
 * written around its text when it is closed. A chunk that reached {@code snapshot.chunk.bytes} goes to the publisher,
 * and the session goes on in its second chunk meanwhile. A chunk may hold the end of one table and the start of the
 * next. Nothing is allocated per row here (pgjdbc's {@link CopyOut#readFromCopy()} returns each row as a new array).
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

    /**
     * Text bytes a CopyChunk record holds at most (one row more may cross it), where the standbys' rings are 4 MiB or
     * more: the applier sends each record as one COPY, and the ring carries it whole (a message may use half the ring).
     */
    static final int RECORD_TEXT_BYTES = 1 << 20;

    private final Connection connection;
    private final Queue<CopyProgress.Table> tables;
    private final BlockingQueue<CopyChunk> filled;
    private final BlockingQueue<CopyChunk> free = new ArrayBlockingQueue<>(2);
    private final int chunkBytes;
    /** Text bytes a record holds at most (one row more may cross it). */
    private final int recordTextBytes;
    private final RecordEncoder encoder = new RecordEncoder();
    /** Relation positions 0..n-1: every row holds the Relation's columns in its order ({@link CopyTable#copySql()}). */
    private int[] positions = new int[0];
    /** The open CopyChunk record: where it starts in the chunk, where its text starts, its text bytes and rows so far. */
    private int recordStart;
    private int textStart;
    private int textLength;
    private int recordRows;
    private CopyChunk chunk;
    private CopyTable copying;
    /** The table this session copied last, once {@link #copying} is done with it. */
    private CopyTable lastCopied;
    private Thread thread;

    private CopySession(Connection connection, Queue<CopyProgress.Table> tables, BlockingQueue<CopyChunk> filled, int chunkBytes,
                        int recordTextBytes) {
        this.recordTextBytes = recordTextBytes;
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
                            BlockingQueue<CopyChunk> filled, int chunkBytes, int recordTextBytes) throws SQLException {
        try (Statement session = connection.createStatement()) {
            session.execute(SETTINGS);
            connection.setAutoCommit(false);
            session.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
            session.execute("SET TRANSACTION SNAPSHOT '" + snapshotName.replace("'", "''") + "'");
        } catch (SQLException | RuntimeException e) {
            closeQuietly(connection);
            throw e;
        }
        return new CopySession(connection, tables, filled, chunkBytes, recordTextBytes);
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
        if (positions.length < columns) {
            positions = new int[columns];
            for (int c = 0; c < columns; c++) {
                positions[c] = c;
            }
        }
        long rows = 0;
        long bytes = 0;
        CopyManager reader = connection.unwrap(PGConnection.class).getCopyAPI();
        CopyOut out = reader.copyOut(t.copySql());
        open(t, columns);
        byte[] line;
        while ((line = out.readFromCopy()) != null) {
            append(t, columns, line);
            bytes += line.length;
            rows++;
            if ((rows & (CopyProgress.PUBLISH_EVERY_ROWS - 1)) == 0) {
                progress.progressed(rows, bytes);
            }
            if (textLength >= recordTextBytes || chunk.length() + recordLength() >= chunkBytes) {
                close(t, columns);
                if (chunk.length() >= chunkBytes) {
                    filled.put(chunk);
                    chunk = free.take();
                }
                open(t, columns);
            }
        }
        close(t, columns);
        progress.finished(rows, bytes, System.nanoTime());
        lastCopied = t;
        copying = null;
    }

    /** Starts a CopyChunk record of table {@code t} at the end of the chunk: its text goes after room for the fields. */
    private void open(CopyTable t, int columns) {
        recordStart = chunk.length();
        textStart = recordStart + CopyChunkDescriptor.textOffset(columns);
        textLength = 0;
        recordRows = 0;
        while (chunk.buffer().capacity() < textStart) {
            chunk.grow(recordStart);
        }
    }

    /**
     * Appends one row as the primary sent it (the server's COPY text, newline included): no parsing, no escaping. The
     * server sends one row a CopyData message, which pgjdbc hands over as one array.
     */
    private void append(CopyTable t, int columns, byte[] line) {
        if (line.length == 0 || line[line.length - 1] != '\n') {
            throw new IllegalStateException("initial copy of " + t.qualified() + ": a COPY row of " + line.length
                    + " bytes does not end with a newline");
        }
        while (chunk.buffer().capacity() - textStart - textLength < line.length) {
            chunk.grow(textStart + textLength);
        }
        chunk.buffer().put(textStart + textLength, line, 0, line.length);
        textLength += line.length;
        recordRows++;
    }

    private int recordLength() {
        return textStart - recordStart + textLength;
    }

    /** Writes the open record's fields around its text; a record without rows is dropped. */
    private void close(CopyTable t, int columns) {
        if (recordRows == 0) {
            return;
        }
        ByteBuffer target = chunk.buffer();
        int length = encoder.encodeCopyChunkAround(target, recordStart, target.capacity() - recordStart, t.oid(),
                positions, columns, recordRows, textLength);
        chunk.advance(length);
        recordRows = 0;
        textLength = 0;
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
