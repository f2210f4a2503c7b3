package io.rdmarepl.shipper.capture;

import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.rdmarepl.format.codec.RecordEncoder;
import io.rdmarepl.shipper.ship.ShipEvent;
import io.rdmarepl.shipper.ship.ShipPipeline;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Debezium's change consumer: turns the engine's records into the change stream
 * ({@link io.rdmarepl.format.ChangeStream}). A transaction's records are staged between its BEGIN
 * and END metadata events and then handed to the standbys as Begin, relations and rows, Commit, in
 * the primary's commit order. Rolled-back transactions never reach pgoutput, so never reach us.
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
    private boolean inTransaction;
    private long txId;
    private long commitTimeUs;
    private volatile long lastShippedLsn;
    private volatile long transactionsShipped;

    public TransactionAssembler(ChangeEncoding encoding, ShipPipeline pipeline, String topicPrefix, long maxTransactionBytes) {
        this.encoding = encoding;
        this.pipeline = pipeline;
        this.transactionTopic = topicPrefix + ".transaction";
        this.staged = new StagedTransaction(maxTransactionBytes);
        this.acks = new AckMarker(pipeline.acks()::acknowledged, java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(100));
    }

    @Override
    public void handleBatch(List<RecordChangeEvent<SourceRecord>> records,
                            DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer) throws InterruptedException {
        acks.markAcknowledged(committer);
        for (RecordChangeEvent<SourceRecord> event : records) {
            SourceRecord record = event.record();
            if (transactionTopic.equals(record.topic())) {
                onTransactionEvent(event, (Struct) record.value());
            } else if (record.value() instanceof Struct value && value.schema().field("op") != null) {
                onChange(event, record);
            } else {
                acks.add(event, lastShippedLsn); // heartbeats and anything else: free once all before is durable
            }
        }
        acks.markAcknowledged(committer);
    }

    @Override
    public boolean supportsTombstoneEvents() {
        return false;
    }

    private void onTransactionEvent(RecordChangeEvent<SourceRecord> event, Struct value) {
        String status = value.getString("status");
        if ("BEGIN".equals(status)) {
            inTransaction = true;
            txId = parseTxId(value.getString("id"));
            commitTimeUs = 0;
            staged.clear();
            transactionRecords.clear();
            transactionRecords.add(event);
        } else if ("END".equals(status)) {
            transactionRecords.add(event);
            Map<String, ?> offset = event.record().sourceOffset();
            long commitLsn = ((Number) offset.get("lsn")).longValue();
            if (commitTimeUs == 0 && offset.get("ts_usec") instanceof Number ts) {
                commitTimeUs = ts.longValue();
            }
            if (staged.count() > 0) {
                ship(commitLsn);
                lastShippedLsn = commitLsn;
                transactionsShipped++;
            }
            long required = staged.count() > 0 ? commitLsn : lastShippedLsn;
            for (RecordChangeEvent<SourceRecord> r : transactionRecords) {
                acks.add(r, required);
            }
            transactionRecords.clear();
            staged.clear();
            inTransaction = false;
        }
    }

    private void onChange(RecordChangeEvent<SourceRecord> event, SourceRecord record) {
        if (!inTransaction) {
            throw new IllegalStateException("change outside a transaction on " + record.topic()
                    + ": snapshot records are not supported in this build (snapshot.mode=no_data)");
        }
        Struct source = ((Struct) record.value()).getStruct("source");
        if (commitTimeUs == 0 && source != null && source.schema().field("ts_us") != null && source.getInt64("ts_us") != null) {
            commitTimeUs = source.getInt64("ts_us");
        }
        int relationId = encoding.relationId(record);
        int version = encoding.relationVersion(record);
        Integer sent = relationsSent.get(relationId);
        if (sent == null || sent != version) {
            staged.add(at -> encoding.encodeRelation(record, staged.buffer(), at, staged.room()));
            relationsSent.put(relationId, version);
        }
        staged.add(at -> encoding.encodeRow(record, staged.buffer(), at, staged.room()));
        transactionRecords.add(event);
    }

    private void ship(long commitLsn) {
        int records = staged.count();
        staged.add(at -> encoder.encodeBegin(staged.buffer(), at, staged.room(), txId, commitLsn, commitTimeUs));
        int begin = staged.count() - 1;
        pipeline.publish(ShipEvent.BEGIN, staged.buffer(), staged.offset(begin), staged.length(begin), commitLsn, commitTimeUs);
        for (int i = 0; i < records; i++) {
            pipeline.publish(ShipEvent.BODY, staged.buffer(), staged.offset(i), staged.length(i), commitLsn, commitTimeUs);
        }
        staged.add(at -> encoder.encodeCommit(staged.buffer(), at, staged.room(), txId, commitLsn, commitLsn, commitTimeUs));
        int commit = staged.count() - 1;
        pipeline.publish(ShipEvent.COMMIT, staged.buffer(), staged.offset(commit), staged.length(commit), commitLsn, commitTimeUs);
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

    public int pendingAcknowledgements() {
        return acks.pending();
    }
}
