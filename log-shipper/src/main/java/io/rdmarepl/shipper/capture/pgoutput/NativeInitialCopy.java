package io.rdmarepl.shipper.capture.pgoutput;

import io.rdmarepl.format.Lsn;
import io.rdmarepl.format.RecordCapacityException;
import io.rdmarepl.format.codec.RecordEncoder;
import io.rdmarepl.format.codec.RelationWriter;
import io.rdmarepl.format.codec.TransactionDescriptor;
import io.rdmarepl.shipper.ship.ShipEvent;
import io.rdmarepl.shipper.ship.ShipPipeline;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The native engine's initial copy: every published table read with {@code COPY ... TO STDOUT} (text format) inside
 * the snapshot the slot exported when it was created, so a transaction that committed before the slot's consistent
 * point is in the copy and a later one streams after it. Values go into the change stream as the server's text
 * output, exactly as pgoutput sends them when streaming (the sessions pin the same output settings as the
 * replication connection).
 *
 * <p>Up to {@code snapshot.parallel.tables} tables are copied at once, each by a {@link CopySession} of its own that
 * imported the exported snapshot (it stays valid while the replication connection that created the slot stays idle,
 * which it does until this returns). The largest tables go first. The sessions read and encode concurrently; the
 * thread calling {@link #run} is the Disruptor's one producer and publishes their chunks whole, one after the other.
 *
 * <pre>
 *   session 1: COPY a -> encode -> chunk --+
 *   session 2: COPY b -> encode -> chunk --+--> run(): Begin, records, Commit per chunk --> ShipPipeline (one producer)
 * </pre>
 *
 * <p>Shipped as chunks of about {@code snapshot.chunk.bytes}, each its own replica transaction carrying the consistent
 * point as commit LSN: the first one opens with every table's Relation and one Truncate emptying them all on the
 * standby (a copy cut short and taken again leaves nothing behind). Every chunk is flagged
 * {@link TransactionDescriptor#BEGIN_SNAPSHOT_CHUNK_FLAG}, and an empty unflagged transaction closes the copy once
 * every session is done: the standby's position, and the acknowledgement that confirms the slot, move only with that
 * one. The order of chunks between tables does not matter to the standby (each chunk is whole, the Truncate comes
 * first, rows of a copy are upserts there). A copy without a single row is one unflagged transaction: the Relations
 * and the Truncate.
 */
final class NativeInitialCopy {
    private static final Logger LOG = LoggerFactory.getLogger(NativeInitialCopy.class);
    /** How often the progress line goes to the log while a copy runs. */
    static final long PROGRESS_LOG_NS = TimeUnit.SECONDS.toNanos(5);
    /** How often the publisher, waiting for a chunk, looks whether capture was closed. */
    private static final long WAIT_NS = TimeUnit.MILLISECONDS.toNanos(100);

    /** Opens a fresh connection to the primary. */
    interface Connections {
        Connection open() throws SQLException;
    }

    private final ShipPipeline pipeline;
    private final int chunkBytes;
    private final int parallelTables;
    private final RecordEncoder encoder = new RecordEncoder();
    private ByteBuffer scratch = ByteBuffer.allocateDirect(64 << 10).order(ByteOrder.LITTLE_ENDIAN);
    /** Begin and Commit records. */
    private final ByteBuffer frames = ByteBuffer.allocateDirect(256).order(ByteOrder.LITTLE_ENDIAN);
    /** The Relation and Truncate records that open the copy, held until the first chunk (or the end) ships them. */
    private final List<byte[]> header = new ArrayList<>();
    private boolean headerShipped;
    private long lsn;
    private long timeUs;
    private volatile CopyProgress progress; // read by /status

    NativeInitialCopy(ShipPipeline pipeline, int chunkBytes, int parallelTables) {
        this.pipeline = pipeline;
        this.chunkBytes = chunkBytes;
        this.parallelTables = parallelTables;
    }

    /**
     * Copies {@code tables} (schema, name) as of {@code snapshotName}, shipping at {@code consistentPoint}.
     *
     * @param connections opens the sessions' connections, used for nothing else meanwhile
     * @param closed      whether capture was closed: the copy stops then
     */
    void run(Connections connections, List<String[]> tables, String snapshotName, long consistentPoint, BooleanSupplier closed)
            throws SQLException {
        this.lsn = consistentPoint;
        this.timeUs = System.currentTimeMillis() * 1000L;
        long startNs = System.nanoTime();
        int sessionCount = Math.max(1, Math.min(parallelTables, tables.size()));
        Handoff queue = new Handoff(new ConcurrentLinkedQueue<>(), new ArrayBlockingQueue<>(3 * sessionCount));
        List<CopySession> sessions = new ArrayList<>();
        CountDownLatch finished = new CountDownLatch(1);
        try {
            for (int i = 0; i < sessionCount; i++) {
                sessions.add(CopySession.open(connections.open(), snapshotName, queue.tables(), queue.filled(), chunkBytes,
                        recordTextBytes()));
            }
            List<CopyTable> described = new ArrayList<>();
            for (String[] t : tables) {
                described.add(CopyTable.describe(sessions.get(0).connection(), t[0], t[1]));
            }
            holdHeader(described);
            described.sort(Comparator.comparingLong(CopyTable::heapBytes).reversed()); // stable: name order among equals
            CopyProgress running = new CopyProgress(described, sessionCount, startNs);
            queue.tables().addAll(running.tables());
            progress = running;
            LOG.info("initial copy: {} tables ({} MB on disk) in {} session(s), snapshot {}", described.size(),
                    described.stream().mapToLong(CopyTable::heapBytes).sum() >> 20, sessionCount, snapshotName);
            for (int i = 0; i < sessionCount; i++) {
                sessions.get(i).start("rdmarepl-copy-" + (i + 1));
            }
            startProgressLine(running, finished);
            publish(queue.filled(), sessionCount, closed);
            ship(0); // the unflagged transaction that closes the copy
            LOG.info("initial copy shipped: {} tables, {} rows, {} MB in {} ms with {} session(s) at LSN {}", described.size(),
                    running.rows(), running.bytes() >> 20, (System.nanoTime() - startNs) / 1_000_000, sessionCount, Lsn.format(lsn));
        } finally {
            finished.countDown();
            sessions.forEach(CopySession::abort);
        }
    }

    /**
     * Text a CopyChunk record holds at most: {@link CopySession#RECORD_TEXT_BYTES}, less where a standby's ring is small
     * (a record must fit in half of it, with room for the row that crosses the limit).
     */
    private int recordTextBytes() {
        return Math.max(4 << 10, Math.min(CopySession.RECORD_TEXT_BYTES, pipeline.maxRecordBytes() / 4));
    }

    /** The shared table queue and the chunks on their way to the publisher. */
    private record Handoff(ConcurrentLinkedQueue<CopyProgress.Table> tables, BlockingQueue<CopyChunk> filled) {
    }

    /** Publishes the sessions' chunks as they come, until every session said it is done. */
    private void publish(BlockingQueue<CopyChunk> filled, int sessions, BooleanSupplier closed) throws SQLException {
        int ended = 0;
        while (ended < sessions) {
            CopyChunk chunk;
            try {
                chunk = filled.poll(WAIT_NS, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted during the initial copy");
            }
            if (closed.getAsBoolean()) {
                throw new IllegalStateException("capture closed during the initial copy");
            }
            if (chunk == null) {
                continue;
            }
            if (chunk.end()) {
                ended++;
                fail(chunk.failure());
                continue;
            }
            long last = ship(chunk);
            awaitConsumed(last, closed);
            chunk.recycle();
        }
    }

    /**
     * Waits until every standby handler wrote the chunk's records (they refer to its buffer, not copies of it): the
     * session that fills the chunk again goes on in its other one meanwhile.
     */
    private void awaitConsumed(long sequence, BooleanSupplier closed) {
        while (!pipeline.consumed(sequence)) {
            String failure = pipeline.failure();
            if (failure != null) {
                throw new IllegalStateException("initial copy: shipping to standby " + failure);
            }
            if (closed.getAsBoolean()) {
                throw new IllegalStateException("capture closed during the initial copy");
            }
            // the standby handlers write the chunk while the ring has room, at the applier's pace (tens of ms a chunk):
            // a millisecond's sleep costs the session nothing (it fills its other chunk) and keeps this thread off the CPU
            LockSupport.parkNanos(1_000_000);
        }
    }

    private static void fail(Throwable failure) throws SQLException {
        if (failure == null) {
            return;
        }
        if (failure instanceof SQLException e) {
            throw e;
        }
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException("initial copy: " + failure, failure);
    }

    /**
     * One chunk as its own flagged transaction; the first one opens with the Relations and the Truncate. The chunk's
     * records are borrowed, not copied; returns the sequence of the transaction's last slot.
     */
    private long ship(CopyChunk chunk) {
        int begin = encoder.encodeBegin(frames, 0, frames.capacity(), 0, lsn, timeUs, TransactionDescriptor.BEGIN_SNAPSHOT_CHUNK_FLAG);
        pipeline.publish(ShipEvent.BEGIN, frames, 0, begin, lsn, 0);
        if (!headerShipped) {
            shipHeader();
        }
        ByteBuffer records = chunk.buffer();
        for (int at = 0; at < chunk.length(); ) {
            int length = TransactionSink.recordLength(records, at);
            pipeline.publishBorrowed(ShipEvent.BODY, records, at, length, lsn, 0);
            at += length;
        }
        commit();
        return pipeline.lastPublished();
    }

    /** An empty transaction with {@code flags}; the header in it when no chunk shipped it (a copy without rows). */
    private void ship(int flags) {
        int begin = encoder.encodeBegin(frames, 0, frames.capacity(), 0, lsn, timeUs, flags);
        pipeline.publish(ShipEvent.BEGIN, frames, 0, begin, lsn, 0);
        if (!headerShipped) {
            shipHeader();
        }
        commit();
    }

    private void commit() {
        int commit = encoder.encodeCommit(frames, 0, frames.capacity(), 0, lsn, lsn, timeUs);
        pipeline.publish(ShipEvent.COMMIT, frames, 0, commit, lsn, 0);
    }

    private void holdHeader(List<CopyTable> described) {
        header.clear();
        headerShipped = false;
        int[] ids = new int[described.size()];
        for (int i = 0; i < ids.length; i++) {
            CopyTable t = described.get(i);
            hold(encodeWithRoom(() -> {
                RelationWriter writer = encoder.startRelation(scratch, 0, scratch.capacity(), t.oid(), t.schema(), t.name(),
                        t.identity());
                for (int c = 0; c < t.columns().size(); c++) {
                    writer.putColumn(t.columns().get(c), t.typeOids()[c], t.typeNames()[c], t.typeModifiers()[c], t.keys()[c]);
                }
                return writer.finish();
            }));
            ids[i] = t.oid();
        }
        if (ids.length > 0) {
            hold(encodeWithRoom(() -> encoder.encodeTruncate(scratch, 0, scratch.capacity(), false, false, ids, ids.length)));
        }
    }

    /** Encodes into the scratch buffer, growing it until the record fits. */
    private int encodeWithRoom(java.util.function.IntSupplier encode) {
        while (true) {
            try {
                return encode.getAsInt();
            } catch (RecordCapacityException e) {
                if (scratch.capacity() >= 1 << 30) {
                    throw e;
                }
                scratch = ByteBuffer.allocateDirect(scratch.capacity() * 2).order(ByteOrder.LITTLE_ENDIAN);
            }
        }
    }

    private void hold(int length) {
        byte[] record = new byte[length];
        scratch.get(0, record);
        header.add(record);
    }

    private void shipHeader() {
        long bytes = 0;
        for (byte[] record : header) {
            pipeline.publish(ShipEvent.BODY, ByteBuffer.wrap(record), 0, record.length, lsn, 0);
            bytes += record.length;
        }
        headerShipped = true;
        CopyProgress running = progress;
        if (running != null) {
            running.header(bytes);
        }
    }

    /** The progress line every {@link #PROGRESS_LOG_NS} while the copy runs, from a thread of its own (back-pressure may hold the publisher). */
    private static void startProgressLine(CopyProgress running, CountDownLatch finished) {
        Thread reporter = new Thread(() -> {
            try {
                while (!finished.await(PROGRESS_LOG_NS, TimeUnit.NANOSECONDS)) {
                    LOG.info("initial copy: {}", running.line(System.nanoTime()));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "rdmarepl-copy-progress");
        reporter.setDaemon(true);
        reporter.start();
    }

    /**
     * Where the copy stands ({@link CopyProgress#toMap}), or null before the tables are described.
     *
     * @param everyTable also every table's own figures and state
     */
    Map<String, Object> progress(boolean everyTable) {
        CopyProgress running = progress;
        return running == null ? null : running.toMap(everyTable, System.nanoTime());
    }
}
