package io.rdmarepl.shipper.capture;

import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import java.util.ArrayDeque;
import java.util.function.LongSupplier;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Tells Debezium a record is processed only once every required standby holds it durably, in
 * capture order. Debezium then commits the record's offset and confirms its LSN to the primary,
 * which may recycle the WAL: nothing the standbys have not made durable is ever released.
 * Runs on the engine's thread, where Debezium expects its committer to be used.
 */
final class AckMarker {
    private final ArrayDeque<RecordChangeEvent<SourceRecord>> records = new ArrayDeque<>();
    private final ArrayDeque<Long> requiredLsns = new ArrayDeque<>();
    private final LongSupplier acknowledged;
    private final long commitIntervalNs;
    private long unflushed;
    private long lastCommitNs;

    /**
     * @param commitIntervalNs least time between two offset commits: each one flushes the LSN over
     *     the replication connection, whose lock the streaming thread holds while it reads, so
     *     committing on every batch would hold capture back
     */
    AckMarker(LongSupplier acknowledged, long commitIntervalNs) {
        this.acknowledged = acknowledged;
        this.commitIntervalNs = commitIntervalNs;
    }

    /** {@code record} may be marked once the standbys acknowledged {@code requiredLsn}. */
    void add(RecordChangeEvent<SourceRecord> record, long requiredLsn) {
        records.add(record);
        requiredLsns.add(requiredLsn);
    }

    /** Marks every record whose requirement is met, oldest first, and lets Debezium commit. */
    void markAcknowledged(DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer) throws InterruptedException {
        markAcknowledged(committer, false);
    }

    /**
     * Like {@link #markAcknowledged(DebeziumEngine.RecordCommitter)}; {@code now} commits at once whatever the
     * interval (at shutdown, so the slot's confirmed position is as far as the standbys allow).
     */
    void markAcknowledged(DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer, boolean now)
            throws InterruptedException {
        long ack = acknowledged.getAsLong();
        while (!records.isEmpty() && Long.compareUnsigned(requiredLsns.peek(), ack) <= 0) {
            requiredLsns.poll();
            committer.markProcessed(records.poll());
            unflushed++;
        }
        long nowNs = System.nanoTime();
        if (unflushed > 0 && (now || nowNs - lastCommitNs >= commitIntervalNs)) {
            committer.markBatchFinished();
            unflushed = 0;
            lastCommitNs = nowNs;
        }
    }

    int pending() {
        return records.size();
    }
}
