package io.rdmarepl.shipper.capture.pgoutput;

import io.rdmarepl.format.codec.RecordDescriptor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Where {@link PgOutputDecoder} hands the source transactions it completed, in the primary's commit order, on the
 * decoding thread, from inside {@code decode}.
 */
public interface TransactionSink {
    /**
     * A committed transaction to ship, framed as the change stream wants it ({@link io.rdmarepl.format.ChangeStream}):
     * {@code recordCount} log-format records back to back in {@code records[0, length)}: a Begin carrying the commit
     * LSN, then Relation records (each before the first row of a relation whose current description the stream has
     * not yet received), Insert, Update, Delete and Truncate records in the order they happened, then a Commit.
     * Walk them with {@link #recordLength}. Rolled-back transactions and rolled-back subtransactions never appear.
     *
     * <p>The buffer is the decoder's and valid only during the call: copy what is kept. Its position and limit mean
     * nothing; read with absolute indexes.
     *
     * @param txId        the source transaction id (the top-level xid)
     * @param commitLsn   LSN of the commit record, as in the Begin and Commit records
     * @param endLsn      end of the commit record: the position a standby reports once it holds this transaction
     * @param commitTimeUs commit time, microseconds since the Unix epoch
     * @param holdsMarker the transaction wrote a catch-up marker ({@link io.rdmarepl.format.CatchUpMarkers}); it is
     *                    shipped even when it changed no row, and a fresh reading of the sequences must go first
     */
    void onTransaction(ByteBuffer records, int length, int recordCount, long txId, long commitLsn, long endLsn,
                       long commitTimeUs, boolean holdsMarker);

    /**
     * A committed transaction with nothing to ship: pgoutput sent it (an empty Begin/Commit, only messages of other
     * prefixes, or only changes of rolled-back subtransactions), but no row, truncate or marker of it survived. Its
     * position is accounted for: whatever is shipped before it being acknowledged covers it. Default: nothing.
     */
    default void onEmptyTransaction(long txId, long commitLsn, long endLsn) {
    }

    /** Length of the record at {@code offset}: header plus body, as its header says. */
    static int recordLength(ByteBuffer records, int offset) {
        int bodyLength = records.order() == ByteOrder.LITTLE_ENDIAN
            ? records.getInt(offset + RecordDescriptor.BODY_LENGTH_OFFSET)
            : Integer.reverseBytes(records.getInt(offset + RecordDescriptor.BODY_LENGTH_OFFSET));
        return RecordDescriptor.HEADER_LENGTH + bodyLength;
    }
}
