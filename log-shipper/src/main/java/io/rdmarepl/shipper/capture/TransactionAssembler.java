package io.rdmarepl.shipper.capture;

import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.rdmarepl.format.codec.RecordEncoder;
import io.rdmarepl.shipper.ship.ShipEvent;
import io.rdmarepl.shipper.ship.ShipPipeline;
import io.rdmarepl.shipper.sync.SyncGate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Debezium's change consumer: turns the engine's records into the change stream
 * ({@link io.rdmarepl.format.ChangeStream}). A transaction's records are staged between its BEGIN
 * and END metadata events and then handed to the standbys as Begin, relations and rows, Commit, in
 * the primary's commit order. Rolled-back transactions never reach pgoutput, so never reach us. Snapshot
 * reads (an initial copy) go to {@link InitialCopy}. Logical decoding messages are not rows: a {@link MarkerMessage}
 * makes its transaction shipped even without rows, and a fresh reading of the primary's sequences is taken before it
 * is handed over ({@link SequenceSync#beforeMarker}); any other message is ignored.
 */
public final class TransactionAssembler implements DebeziumEngine.ChangeConsumer<RecordChangeEvent<SourceRecord>> {
    private final ChangeEncoding encoding;
    private final ShipPipeline pipeline;
    private final String transactionTopic;
    private final RecordEncoder encoder = new RecordEncoder();
    private final StagedTransaction staged;
    private final AckMarker acks;
    private final Map<Integer, Integer> relationsSent = new HashMap<>();
    private final List<RecordChangeEvent<SourceRecord>> transactionRecords = new ArrayList<>();
    private final PendingTruncate truncate = new PendingTruncate();
    private final InitialCopy initialCopy;
    private final SyncGate sync;
    private final Runnable beforeMarker;
    private boolean inTransaction;
    private boolean markerInTransaction;
    private volatile boolean copyPending; // read by /status
    private long txId;
    private long commitTimeUs;
    private volatile long lastShippedLsn;
    private volatile boolean draining;
    private volatile boolean drained;
    private volatile long transactionsShipped;

    /**
     * @param publishedTables schema and table of every published table; read when an initial copy starts
     * @param snapshotChunkBytes staged bytes after which an initial copy ships a chunk
     * @param copyExpected Debezium runs with {@code snapshot.mode=initial}: an initial copy comes first, and when
     *     it has no row at all (every published table empty) the standby's tables are emptied all the same
     * @param beforeMarker run on the capture thread right before a transaction holding a catch-up marker is handed
     *     to the standbys: what it puts on the sequence board goes out ahead of the marker
     */
    public TransactionAssembler(ChangeEncoding encoding, ShipPipeline pipeline, String topicPrefix, long maxTransactionBytes,
                                Supplier<List<String[]>> publishedTables, long snapshotChunkBytes, boolean copyExpected,
                                SyncGate sync, Runnable beforeMarker) {
        this.encoding = encoding;
        this.sync = sync;
        this.beforeMarker = beforeMarker;
        this.pipeline = pipeline;
        this.transactionTopic = topicPrefix + ".transaction";
        this.staged = new StagedTransaction(maxTransactionBytes);
        // sync mode: the flush that follows an offset commit is what releases the primary's waiting commits
        this.acks = new AckMarker(pipeline.acks()::acknowledged,
                sync.enabled() ? 0 : java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(100));
        this.initialCopy = new InitialCopy(encoding, staged, relationsSent, publishedTables, this::stageRow,
                (lsn, timeUs, flags) -> ship(0, lsn, timeUs, 0, flags), snapshotChunkBytes);
        this.copyPending = copyExpected;
    }

    @Override
    public void handleBatch(List<RecordChangeEvent<SourceRecord>> records,
                            DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer) throws InterruptedException {
        acks.markAcknowledged(committer);
        if (draining) {
            // ship nothing new: these records stay unprocessed, so the slot sends them again after the restart;
            // Debezium's heartbeat keeps the batches (and with them the offset commits) coming meanwhile
            drained = acks.pending() == 0;
            return;
        }
        for (RecordChangeEvent<SourceRecord> event : records) {
            SourceRecord record = event.record();
            Struct envelope = record.value() instanceof Struct value && value.schema().field("op") != null ? value : null;
            boolean snapshotRead = envelope != null && "r".equals(envelope.getString("op"));
            if (copyPending && !snapshotRead) {
                copyEmptyTables(record);
            }
            if (transactionTopic.equals(record.topic())) {
                onTransactionEvent(event, (Struct) record.value());
            } else if (snapshotRead) {
                onSnapshotRead(event, record);
            } else if (envelope != null && MarkerMessage.isMessage(envelope)) {
                onMessage(event, envelope);
            } else if (envelope != null) {
                onChange(event, record);
            } else {
                acks.add(event, lastShippedLsn); // heartbeats and anything else: free once all before is durable
            }
        }
        sync.afterBatch(lastShippedLsn);
        acks.markAcknowledged(committer);
    }

    @Override
    public boolean supportsTombstoneEvents() {
        return false;
    }

    private void onTransactionEvent(RecordChangeEvent<SourceRecord> event, Struct value) {
        String status = value.getString("status");
        if (initialCopy.active()) {
            throw new IllegalStateException("a transaction began before the initial copy's last row: the snapshot ended early");
        }
        if ("BEGIN".equals(status)) {
            inTransaction = true;
            markerInTransaction = false;
            txId = parseTxId(value.getString("id"));
            commitTimeUs = 0;
            staged.clear();
            truncate.clear();
            transactionRecords.clear();
            transactionRecords.add(event);
        } else if ("END".equals(status)) {
            truncate.stage(staged, encoder);
            transactionRecords.add(event);
            Map<String, ?> offset = event.record().sourceOffset();
            long commitLsn = ((Number) offset.get("lsn")).longValue();
            if (commitTimeUs == 0 && offset.get("ts_usec") instanceof Number ts) {
                commitTimeUs = ts.longValue();
            }
            // a marker-only transaction ships as Begin, Commit: the standby's applied LSN then passes the marker
            boolean shipped = staged.count() > 0 || markerInTransaction;
            if (shipped) {
                if (markerInTransaction) {
                    beforeMarker.run(); // the primary is fenced now: its final sequences go ahead of the marker
                }
                ship(txId, commitLsn, commitTimeUs, commitTimeUs, 0);
                lastShippedLsn = commitLsn;
                transactionsShipped++;
            }
            long required = shipped ? commitLsn : lastShippedLsn;
            for (RecordChangeEvent<SourceRecord> r : transactionRecords) {
                acks.add(r, required);
            }
            transactionRecords.clear();
            staged.clear();
            inTransaction = false;
            markerInTransaction = false;
        }
    }

    private void onSnapshotRead(RecordChangeEvent<SourceRecord> event, SourceRecord record) {
        if (inTransaction) {
            throw new IllegalStateException("snapshot read of " + record.topic() + " inside a streamed transaction");
        }
        long copyLsn = initialCopy.onRead(record);
        if (copyLsn != 0) {
            copyPending = false;
            // only the last read is kept for Debezium: its offset stands for the whole copy
            acks.add(event, copyLsn);
            lastShippedLsn = copyLsn;
            transactionsShipped++;
        }
    }

    /**
     * A logical decoding message: a marker inside a transaction makes the transaction shipped; the message itself is
     * acknowledged with its transaction like a row. Other prefixes, and messages outside a transaction, are ignored.
     */
    private void onMessage(RecordChangeEvent<SourceRecord> event, Struct value) {
        if (!inTransaction) {
            acks.add(event, lastShippedLsn);
            return;
        }
        if (MarkerMessage.isMarker(value)) {
            markerInTransaction = true;
            Struct source = value.schema().field("source") != null ? value.getStruct("source") : null;
            if (commitTimeUs == 0 && source != null && source.schema().field("ts_us") != null && source.getInt64("ts_us") != null) {
                commitTimeUs = source.getInt64("ts_us");
            }
        }
        transactionRecords.add(event);
    }

    /**
     * The initial copy was expected but Debezium streams without having read a row: every published table is empty.
     * The standby's tables are emptied all the same (Relations, Truncate), at the LSN of the first streamed record,
     * which no later commit precedes; the copy then has an LSN the standby reaches like any other. A record still
     * flagged as part of the snapshot does not count.
     */
    private void copyEmptyTables(SourceRecord record) {
        Map<String, ?> offset = record.sourceOffset();
        if (offset == null || offset.get("snapshot") != null || !(offset.get("lsn") instanceof Number lsn)) {
            return;
        }
        copyPending = false;
        initialCopy.shipEmpty(lsn.longValue());
        lastShippedLsn = lsn.longValue();
        transactionsShipped++;
    }

    private void onChange(RecordChangeEvent<SourceRecord> event, SourceRecord record) {
        if (!inTransaction) {
            throw new IllegalStateException("change outside a transaction on " + record.topic());
        }
        Struct source = ((Struct) record.value()).getStruct("source");
        if (commitTimeUs == 0 && source != null && source.schema().field("ts_us") != null && source.getInt64("ts_us") != null) {
            commitTimeUs = source.getInt64("ts_us");
        }
        if ("t".equals(((Struct) record.value()).getString("op"))) {
            stageRelation(record);
            truncate.add(encoding.relationId(record));
        } else {
            truncate.stage(staged, encoder);
            stageRow(record);
        }
        transactionRecords.add(event);
    }

    /** Stages the row record of {@code record}, after its table's Relation when the standby has not seen this version. */
    private void stageRow(SourceRecord record) {
        stageRelation(record);
        staged.add(at -> encoding.encodeRow(record, staged.buffer(), at, staged.room()));
    }

    /** Stages the Relation record of {@code record}'s table when the standby has not seen this version. */
    private void stageRelation(SourceRecord record) {
        int relationId = encoding.relationId(record);
        int version = encoding.relationVersion(record);
        Integer sent = relationsSent.get(relationId);
        if (sent == null || sent != version) {
            staged.add(at -> encoding.encodeRelation(record, staged.buffer(), at, staged.room()));
            relationsSent.put(relationId, version);
        }
    }

    /**
     * Ships what is staged as Begin, records, Commit.
     *
     * @param lagTimeUs commit time the capture-lag histogram measures from; 0 keeps an initial copy out of it
     */
    private void ship(long id, long commitLsn, long timeUs, long lagTimeUs, int beginFlags) {
        int records = staged.count();
        staged.add(at -> encoder.encodeBegin(staged.buffer(), at, staged.room(), id, commitLsn, timeUs, beginFlags));
        int begin = staged.count() - 1;
        pipeline.publish(ShipEvent.BEGIN, staged.buffer(), staged.offset(begin), staged.length(begin), commitLsn, lagTimeUs);
        for (int i = 0; i < records; i++) {
            pipeline.publish(ShipEvent.BODY, staged.buffer(), staged.offset(i), staged.length(i), commitLsn, lagTimeUs);
        }
        staged.add(at -> encoder.encodeCommit(staged.buffer(), at, staged.room(), id, commitLsn, commitLsn, timeUs));
        int commit = staged.count() - 1;
        pipeline.publish(ShipEvent.COMMIT, staged.buffer(), staged.offset(commit), staged.length(commit), commitLsn, lagTimeUs);
    }

    private static long parseTxId(String id) {
        int colon = id.indexOf(':');
        return Long.parseLong(colon < 0 ? id : id.substring(0, colon));
    }

    public long lastShippedLsn() {
        return lastShippedLsn;
    }

    public long transactionsShipped() {
        return transactionsShipped;
    }

    /**
     * Stops shipping: later batches only confirm, to Debezium and through it to the slot, what the standbys
     * acknowledged. {@link #drained()} tells when everything shipped is confirmed.
     */
    public void drain() {
        draining = true;
    }

    /** Since {@link #drain()}, every shipped transaction was acknowledged and its offset committed. */
    public boolean drained() {
        return drained;
    }

    /** An initial copy is being shipped, or still to come: Debezium has not streamed yet. */
    public boolean copying() {
        return initialCopy.active() || copyPending;
    }

    /** The consistent-point LSN of the last initial copy (known once it started), or 0 when none was taken. */
    public long copyLsn() {
        return initialCopy.lsn();
    }

    public int pendingAcknowledgements() {
        return acks.pending();
    }
}
