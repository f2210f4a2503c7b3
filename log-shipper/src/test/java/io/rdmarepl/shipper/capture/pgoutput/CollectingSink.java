package io.rdmarepl.shipper.capture.pgoutput;

import io.rdmarepl.format.codec.RecordDecoder;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.format.record.RecordMaterializer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** Decodes every handed-over transaction back into records (allocating: tests only). */
final class CollectingSink implements TransactionSink {
    /** One handed-over transaction: its records and what the sink was told about it. */
    record Shipped(List<ChangeRecord> records, long txId, long commitLsn, long endLsn, long commitTimeUs, boolean marker) {
        /** The records between Begin and Commit. */
        List<ChangeRecord> body() {
            return records.subList(1, records.size() - 1);
        }

        /** Rows and truncates: the body without Relation records. */
        List<ChangeRecord> changes() {
            return body().stream().filter(r -> !(r instanceof ChangeRecord.Relation)).toList();
        }
    }

    /** A transaction with nothing to ship. */
    record Empty(long txId, long commitLsn, long endLsn) {
    }

    final List<Shipped> shipped = new ArrayList<>();
    final List<Empty> empty = new ArrayList<>();
    private final RecordDecoder decoder = new RecordDecoder();

    @Override
    public void onTransaction(ByteBuffer records, int length, int recordCount, long txId, long commitLsn, long endLsn,
                              long commitTimeUs, boolean holdsMarker) {
        List<ChangeRecord> decoded = new ArrayList<>();
        RecordMaterializer materializer = new RecordMaterializer();
        int at = 0;
        for (int i = 0; i < recordCount; i++) {
            int recordLength = TransactionSink.recordLength(records, at);
            int read = decoder.decode(records, at, length - at, materializer);
            if (read != recordLength) {
                throw new AssertionError("record " + i + " is " + read + " bytes, its header says " + recordLength);
            }
            decoded.add(materializer.last());
            at += read;
        }
        if (at != length) {
            throw new AssertionError(recordCount + " records take " + at + " bytes, the sink was given " + length);
        }
        shipped.add(new Shipped(List.copyOf(decoded), txId, commitLsn, endLsn, commitTimeUs, holdsMarker));
    }

    @Override
    public void onEmptyTransaction(long txId, long commitLsn, long endLsn) {
        empty.add(new Empty(txId, commitLsn, endLsn));
    }
}
