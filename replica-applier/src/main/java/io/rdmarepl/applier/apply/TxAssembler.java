package io.rdmarepl.applier.apply;

import io.rdmarepl.channel.fragment.MessageHandler;
import io.rdmarepl.format.ChangeStream;
import io.rdmarepl.format.Lsn;
import io.rdmarepl.format.codec.RecordDecoder;
import io.rdmarepl.format.codec.RecordHandler;
import io.rdmarepl.format.codec.RelationView;
import io.rdmarepl.format.codec.RowChangeView;
import io.rdmarepl.format.codec.TransactionDescriptor;
import io.rdmarepl.format.codec.TruncateView;
import java.nio.ByteBuffer;

/**
 * Turns ring messages into whole transactions in the {@link GroupLog}: decodes (validating, no allocation),
 * skips every transaction whose commit LSN is at or below what is already applied or queued (re-sent after a
 * shipper restart), keeps Relation records in stream order, and drops a transaction cut short by a writer
 * that started over. Chunks of an initial copy ({@link TransactionDescriptor#BEGIN_SNAPSHOT_CHUNK_FLAG}) are
 * applied without moving the position; the copy's last chunk, a plain transaction at the copy's LSN, moves it. Runs on the apply thread, inside the ring poll.
 */
final class TxAssembler implements MessageHandler, RecordHandler {
    private final RecordDecoder decoder = new RecordDecoder();
    private final GroupLog log;
    private ByteBuffer buffer;
    private int offset;
    private int length;
    private long acceptedLsn;
    private boolean inTransaction;
    private boolean skipping;
    private boolean snapshotChunk;
    private long snapshotChunks;
    private long nowNs;

    private long skippedTransactions;
    private long discardedPartialTransactions;
    private long ignoredMessages;
    private long strayRecords;
    private long heartbeatTimeUs;
    private long heartbeatLsn;
    private long receivedTransactions;

    TxAssembler(GroupLog log, long appliedLsn) {
        this.log = log;
        this.acceptedLsn = appliedLsn;
    }

    /** Called before each poll so commits are stamped without reading the clock per record. */
    void now(long nowNs) {
        this.nowNs = nowNs;
    }

    @Override
    public void onMessage(int type, ByteBuffer buffer, int offset, int length) {
        if (type != ChangeStream.RECORD_FRAME_TYPE) {
            ignoredMessages++;
            return;
        }
        this.buffer = buffer;
        this.offset = offset;
        this.length = length;
        decoder.decode(buffer, offset, length, this);
    }

    @Override
    public void onBegin(long txId, long commitLsn, long commitTimeUs, int flags) {
        if (inTransaction) {
            discardedPartialTransactions++;
            if (!skipping) {
                log.discardOpenTransaction();
            }
        }
        inTransaction = true;
        snapshotChunk = (flags & TransactionDescriptor.BEGIN_SNAPSHOT_CHUNK_FLAG) != 0;
        skipping = Lsn.compare(commitLsn, acceptedLsn) <= 0;
        if (skipping) {
            skippedTransactions++;
            return;
        }
        log.beginTransaction();
        append();
    }

    @Override
    public void onCommit(long txId, long commitLsn, long endLsn, long commitTimeUs) {
        if (!inTransaction) {
            strayRecords++;
            return;
        }
        inTransaction = false;
        if (!skipping) {
            append();
            if (snapshotChunk) {
                // applied, but the position stays where it was: a copy cut short is redone from its start
                log.commitTransaction(acceptedLsn, txId, commitTimeUs, nowNs);
                snapshotChunks++;
            } else {
                log.commitTransaction(commitLsn, txId, commitTimeUs, nowNs);
                acceptedLsn = commitLsn;
                receivedTransactions++;
            }
        }
        skipping = false;
    }

    @Override
    public void onRelation(RelationView relation) {
        append();
    }

    @Override
    public void onInsert(RowChangeView insert) {
        row();
    }

    @Override
    public void onUpdate(RowChangeView update) {
        row();
    }

    @Override
    public void onDelete(RowChangeView delete) {
        row();
    }

    @Override
    public void onTruncate(TruncateView truncate) {
        row();
    }

    @Override
    public void onHeartbeat(long timeUs, long lastLsn) {
        heartbeatTimeUs = timeUs;
        heartbeatLsn = lastLsn;
    }

    private void row() {
        if (!inTransaction) {
            strayRecords++;
        } else if (!skipping) {
            append();
        }
    }

    private void append() {
        log.append(buffer, offset, length);
    }

    /** Highest commit LSN applied or waiting in the log. */
    long acceptedLsn() {
        return acceptedLsn;
    }

    long skippedTransactions() {
        return skippedTransactions;
    }

    long discardedPartialTransactions() {
        return discardedPartialTransactions;
    }

    long ignoredMessages() {
        return ignoredMessages;
    }

    /** Row or Commit records outside a transaction (a stream that breaks the contract); counted, never applied. */
    long strayRecords() {
        return strayRecords;
    }

    long heartbeatTimeUs() {
        return heartbeatTimeUs;
    }

    long heartbeatLsn() {
        return heartbeatLsn;
    }

    /** Chunks of an initial copy applied so far; the copy's last chunk counts as a received transaction. */
    long snapshotChunks() {
        return snapshotChunks;
    }

    long receivedTransactions() {
        return receivedTransactions;
    }
}
