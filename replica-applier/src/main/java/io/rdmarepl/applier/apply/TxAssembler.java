package io.rdmarepl.applier.apply;

import io.rdmarepl.channel.fragment.MessageHandler;
import io.rdmarepl.format.ChangeStream;
import io.rdmarepl.format.Lsn;
import io.rdmarepl.format.codec.CopyChunkView;
import io.rdmarepl.format.codec.RecordDecoder;
import io.rdmarepl.format.codec.RecordEncoder;
import io.rdmarepl.format.codec.RecordHandler;
import io.rdmarepl.format.codec.RelationView;
import io.rdmarepl.format.codec.RowChangeView;
import io.rdmarepl.format.codec.SequenceView;
import io.rdmarepl.format.codec.TransactionDescriptor;
import io.rdmarepl.format.codec.TruncateView;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Turns ring messages into whole transactions in the {@link GroupLog}: decodes (validating, no allocation),
 * skips every transaction whose commit LSN is at or below what is already applied or queued (re-sent after a
 * shipper restart), keeps Relation records in stream order, and drops a transaction cut short by a writer
 * that started over. Chunks of an initial copy ({@link TransactionDescriptor#BEGIN_SNAPSHOT_CHUNK_FLAG}) are
 * applied without moving the position; the copy's last chunk, a plain transaction at the copy's LSN, moves it.
 * Sequence records between transactions are gathered into a unit of their own, closed by the next other record or
 * the end of the poll ({@link #endOfPoll}), wrapped in a Begin and Commit at the position already reached: applied
 * in stream order, even when no transaction follows, without moving the position. Runs on the apply thread,
 * inside the ring poll.
 */
final class TxAssembler implements MessageHandler, RecordHandler {
    private final RecordDecoder decoder = new RecordDecoder();
    private final GroupLog log;
    private final RecordEncoder encoder = new RecordEncoder();
    private final ByteBuffer boundary = ByteBuffer.allocateDirect(64).order(ByteOrder.LITTLE_ENDIAN);
    private final Runnable transactionQueued;
    private ByteBuffer buffer;
    private int offset;
    private int length;
    private long acceptedLsn;
    private long acceptedTxId;
    private boolean inTransaction;
    private boolean sequencesOpen;
    private long sequencesTimeUs;
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

    /**
     * @param transactionQueued called on the apply thread after each transaction, or unit of Sequence records, that joins
     *                          the log
     */
    TxAssembler(GroupLog log, long appliedLsn, long appliedTxId, Runnable transactionQueued) {
        this.log = log;
        this.transactionQueued = transactionQueued;
        this.acceptedLsn = appliedLsn;
        this.acceptedTxId = appliedTxId;
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

    /** Called after each poll: Sequence records received last are applied without waiting for another record. */
    void endOfPoll() {
        closeSequences();
    }

    @Override
    public void onBegin(long txId, long commitLsn, long commitTimeUs, int flags) {
        closeSequences();
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
        closeSequences();
        if (!inTransaction) {
            strayRecords++;
            return;
        }
        inTransaction = false;
        if (!skipping) {
            append();
            if (snapshotChunk) {
                // applied, but the position stays where it was: a copy cut short is redone from its start
                log.commitTransaction(acceptedLsn, txId, commitTimeUs, nowNs, true);
                snapshotChunks++;
            } else {
                log.commitTransaction(commitLsn, txId, commitTimeUs, nowNs, false);
                acceptedLsn = commitLsn;
                acceptedTxId = txId;
                receivedTransactions++;
            }
            transactionQueued.run();
        }
        skipping = false;
    }

    @Override
    public void onRelation(RelationView relation) {
        closeSequences();
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
    public void onCopyChunk(CopyChunkView chunk) {
        row();
    }

    @Override
    public void onHeartbeat(long timeUs, long lastLsn) {
        closeSequences();
        heartbeatTimeUs = timeUs;
        heartbeatLsn = lastLsn;
    }

    /**
     * A sequence's state. Between transactions (where the shipper sends them) it joins the open unit of Sequence
     * records, opening one first; inside a transaction it is applied with it.
     */
    @Override
    public void onSequence(SequenceView sequence) {
        if (inTransaction) {
            if (!skipping) {
                append();
            }
            return;
        }
        if (!sequencesOpen) {
            log.beginTransaction();
            int length = encoder.encodeBegin(boundary, 0, boundary.capacity(), acceptedTxId, acceptedLsn, sequence.readTimeUs());
            log.append(boundary, 0, length);
            sequencesOpen = true;
        }
        sequencesTimeUs = sequence.readTimeUs();
        append();
    }

    /** Ends the open unit of Sequence records, if any, with a Commit at the position already reached. */
    private void closeSequences() {
        if (!sequencesOpen) {
            return;
        }
        sequencesOpen = false;
        int length = encoder.encodeCommit(boundary, 0, boundary.capacity(), acceptedTxId, acceptedLsn, acceptedLsn,
                sequencesTimeUs);
        log.append(boundary, 0, length);
        log.commitSequences(acceptedLsn, acceptedTxId, sequencesTimeUs, nowNs);
        transactionQueued.run();
    }

    private void row() {
        closeSequences();
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
