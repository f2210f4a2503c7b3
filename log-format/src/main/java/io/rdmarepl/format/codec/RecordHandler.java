package io.rdmarepl.format.codec;

/**
 * Receives decoded records from {@link RecordDecoder#decode}. Views are owned by the decoder and valid
 * only during the call; copy what must outlive it. Every method defaults to ignoring the record.
 */
public interface RecordHandler {
    default void onBegin(long txId, long commitLsn, long commitTimeUs) {
    }

    /**
     * What the decoder calls; {@code flags} is 0 or {@link TransactionDescriptor#BEGIN_SNAPSHOT_CHUNK_FLAG}.
     * Handlers that do not care about snapshot chunks implement the three-argument form.
     */
    default void onBegin(long txId, long commitLsn, long commitTimeUs, int flags) {
        onBegin(txId, commitLsn, commitTimeUs);
    }

    default void onCommit(long txId, long commitLsn, long endLsn, long commitTimeUs) {
    }

    default void onHeartbeat(long timeUs, long lastLsn) {
    }

    default void onRelation(RelationView relation) {
    }

    default void onInsert(RowChangeView insert) {
    }

    default void onUpdate(RowChangeView update) {
    }

    default void onDelete(RowChangeView delete) {
    }

    default void onTruncate(TruncateView truncate) {
    }

    /** A sequence's state on the primary, shipped between transactions ({@link SequenceDescriptor}). */
    default void onSequence(SequenceView sequence) {
    }

    /**
     * Rows of an initial copy as COPY text ({@link CopyChunkDescriptor}). A handler that applies rows must not ignore
     * it; the default does, as for every kind, for handlers that only look at some kinds.
     */
    default void onCopyChunk(CopyChunkView chunk) {
    }
}
