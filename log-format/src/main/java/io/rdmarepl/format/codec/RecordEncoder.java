package io.rdmarepl.format.codec;

import static io.rdmarepl.format.codec.TransactionDescriptor.BEGIN_COMMIT_LSN_OFFSET;
import static io.rdmarepl.format.codec.TransactionDescriptor.BEGIN_COMMIT_TIME_OFFSET;
import static io.rdmarepl.format.codec.TransactionDescriptor.BEGIN_LENGTH;
import static io.rdmarepl.format.codec.TransactionDescriptor.BEGIN_TX_ID_OFFSET;
import static io.rdmarepl.format.codec.TransactionDescriptor.COMMIT_COMMIT_LSN_OFFSET;
import static io.rdmarepl.format.codec.TransactionDescriptor.COMMIT_COMMIT_TIME_OFFSET;
import static io.rdmarepl.format.codec.TransactionDescriptor.COMMIT_END_LSN_OFFSET;
import static io.rdmarepl.format.codec.TransactionDescriptor.COMMIT_LENGTH;
import static io.rdmarepl.format.codec.TransactionDescriptor.COMMIT_TX_ID_OFFSET;
import static io.rdmarepl.format.codec.TransactionDescriptor.HEARTBEAT_LAST_LSN_OFFSET;
import static io.rdmarepl.format.codec.TransactionDescriptor.HEARTBEAT_LENGTH;
import static io.rdmarepl.format.codec.TransactionDescriptor.HEARTBEAT_TIME_OFFSET;

import io.rdmarepl.format.OldTupleKind;
import io.rdmarepl.format.RecordKind;
import java.nio.ByteBuffer;

/**
 * Encodes change records into a caller's {@code (buffer, offset, maxLength)} region, little-endian
 * whatever the buffer's order, with absolute puts only (the buffer's position and limit are untouched).
 * One instance per thread, reused for every record: in steady state nothing is allocated.
 *
 * <p>Fixed-size records ({@link TransactionDescriptor#BEGIN_LENGTH} and friends), and Truncate and Sequence,
 * whose length is known from their arguments, are written in one call that returns their length. Row changes and relations are written field by field through the
 * {@link RowWriter} / {@link RelationWriter} this encoder owns, whose {@code finish()} returns the length,
 * so a ring writer either claims its largest frame and encodes in place or encodes into a scratch buffer.
 *
 * <p>If the region is too small, a {@link io.rdmarepl.format.RecordCapacityException} names the record,
 * field and sizes; nothing is written past {@code offset + maxLength}.
 *
 * <pre>{@code
 * int n = encoder.startInsert(buf, off, max, relationId).putInt4(42).putText("hello").putNull().finish();
 * }</pre>
 */
public final class RecordEncoder {
    private final RowWriter rowWriter = new RowWriter();
    private final RelationWriter relationWriter = new RelationWriter();
    private final FixedWriter fixedWriter = new FixedWriter();

    /** Writes a Begin record; returns {@link TransactionDescriptor#BEGIN_LENGTH}. */
    public int encodeBegin(ByteBuffer buffer, int offset, int maxLength, long txId, long commitLsn, long commitTimeUs) {
        return encodeBegin(buffer, offset, maxLength, txId, commitLsn, commitTimeUs, 0);
    }

    /**
     * Writes a Begin record with {@code flags} (0 or {@link TransactionDescriptor#BEGIN_SNAPSHOT_CHUNK_FLAG});
     * returns {@link TransactionDescriptor#BEGIN_LENGTH}.
     */
    public int encodeBegin(ByteBuffer buffer, int offset, int maxLength, long txId, long commitLsn, long commitTimeUs,
                           int flags) {
        if ((flags & ~TransactionDescriptor.BEGIN_SNAPSHOT_CHUNK_FLAG) != 0) {
            throw new IllegalArgumentException("Begin flags " + flags + " define bits this format does not have");
        }
        ByteBuffer out = fixedWriter.begin(buffer, offset, maxLength, RecordKind.BEGIN, flags, BEGIN_LENGTH);
        out.putLong(offset + BEGIN_TX_ID_OFFSET, txId);
        out.putLong(offset + BEGIN_COMMIT_LSN_OFFSET, commitLsn);
        out.putLong(offset + BEGIN_COMMIT_TIME_OFFSET, commitTimeUs);
        return fixedWriter.endRecord();
    }

    /** Writes a Commit record; returns {@link TransactionDescriptor#COMMIT_LENGTH}. */
    public int encodeCommit(ByteBuffer buffer, int offset, int maxLength, long txId, long commitLsn, long endLsn,
                            long commitTimeUs) {
        ByteBuffer out = fixedWriter.begin(buffer, offset, maxLength, RecordKind.COMMIT, COMMIT_LENGTH);
        out.putLong(offset + COMMIT_TX_ID_OFFSET, txId);
        out.putLong(offset + COMMIT_COMMIT_LSN_OFFSET, commitLsn);
        out.putLong(offset + COMMIT_END_LSN_OFFSET, endLsn);
        out.putLong(offset + COMMIT_COMMIT_TIME_OFFSET, commitTimeUs);
        return fixedWriter.endRecord();
    }

    /** Writes a Heartbeat record; returns {@link TransactionDescriptor#HEARTBEAT_LENGTH}. */
    public int encodeHeartbeat(ByteBuffer buffer, int offset, int maxLength, long timeUs, long lastLsn) {
        ByteBuffer out = fixedWriter.begin(buffer, offset, maxLength, RecordKind.HEARTBEAT, HEARTBEAT_LENGTH);
        out.putLong(offset + HEARTBEAT_TIME_OFFSET, timeUs);
        out.putLong(offset + HEARTBEAT_LAST_LSN_OFFSET, lastLsn);
        return fixedWriter.endRecord();
    }

    /**
     * Writes a Sequence record: the state of sequence {@code schema.name} read at {@code readTimeUs}; returns
     * {@link SequenceDescriptor#sequenceLength(int, int)} of the names' UTF-8 lengths.
     *
     * @throws IllegalArgumentException when a name holds an unpaired surrogate (it has no UTF-8 form)
     */
    public int encodeSequence(ByteBuffer buffer, int offset, int maxLength, CharSequence schema, CharSequence name,
                              long lastValue, boolean isCalled, long readTimeUs) {
        int schemaBytes = utf8Length(schema, "schema");
        int nameBytes = utf8Length(name, "name");
        ByteBuffer out = fixedWriter.begin(buffer, offset, maxLength, RecordKind.SEQUENCE,
            isCalled ? SequenceDescriptor.IS_CALLED_FLAG : 0, SequenceDescriptor.sequenceLength(schemaBytes, nameBytes));
        out.putLong(offset + SequenceDescriptor.LAST_VALUE_OFFSET, lastValue);
        out.putLong(offset + SequenceDescriptor.READ_TIME_OFFSET, readTimeUs);
        int at = offset + SequenceDescriptor.SCHEMA_OFFSET;
        out.putInt(at, schemaBytes);
        at = Utf8.encode(schema, out, at + Integer.BYTES);
        out.putInt(at, nameBytes);
        Utf8.encode(name, out, at + Integer.BYTES);
        return fixedWriter.endRecord();
    }

    private static int utf8Length(CharSequence text, String field) {
        int length = Utf8.encodedLength(text);
        if (length < 0) {
            throw new IllegalArgumentException("Sequence record " + field + ": unpaired surrogate at index " + (-length - 1));
        }
        return length;
    }

    /**
     * Writes a Truncate record of {@code relationIds[0..count)}; returns
     * {@link TruncateDescriptor#truncateLength(int)}.
     */
    public int encodeTruncate(ByteBuffer buffer, int offset, int maxLength, boolean cascade, boolean restartIdentity,
                              int[] relationIds, int count) {
        if (count < 0 || count > relationIds.length) {
            throw new IllegalArgumentException("count " + count + " is outside relationIds[0.." + relationIds.length + "]");
        }
        int flags = (cascade ? TruncateDescriptor.CASCADE_FLAG : 0)
            | (restartIdentity ? TruncateDescriptor.RESTART_IDENTITY_FLAG : 0);
        ByteBuffer out = fixedWriter.begin(buffer, offset, maxLength, RecordKind.TRUNCATE, flags,
            TruncateDescriptor.truncateLength(count));
        out.putInt(offset + TruncateDescriptor.RELATION_COUNT_OFFSET, count);
        for (int i = 0; i < count; i++) {
            out.putInt(offset + TruncateDescriptor.RELATION_IDS_OFFSET + i * Integer.BYTES, relationIds[i]);
        }
        return fixedWriter.endRecord();
    }

    /**
     * Completes a CopyChunk record whose {@code textLength} bytes of COPY text the caller already wrote at
     * {@code offset + }{@link CopyChunkDescriptor#textOffset(int) textOffset(columnCount)} (rows straight from the
     * primary, never copied twice); writes everything but the text. Returns the record's length.
     *
     * @param columns positions in the table's Relation record, {@code columns[0..columnCount)}
     * @throws IllegalArgumentException when the counts disagree or the text does not end with a row's newline
     */
    public int encodeCopyChunkAround(ByteBuffer buffer, int offset, int maxLength, int relationId, int[] columns,
                                     int columnCount, int rowCount, int textLength) {
        if (columnCount < 0 || columnCount > columns.length || columnCount > CopyChunkDescriptor.MAX_COLUMNS) {
            throw new IllegalArgumentException("columnCount " + columnCount + " is outside columns[0.." + columns.length
                + "] or above " + CopyChunkDescriptor.MAX_COLUMNS);
        }
        if (rowCount < 0 || textLength < 0 || (rowCount == 0) != (textLength == 0)) {
            throw new IllegalArgumentException("CopyChunk of " + rowCount + " rows with " + textLength + " bytes of text");
        }
        long length = CopyChunkDescriptor.copyChunkLength(columnCount, textLength);
        ByteBuffer out = fixedWriter.begin(buffer, offset, maxLength, RecordKind.COPY_CHUNK, 0,
            (int) Math.min(Integer.MAX_VALUE, length));
        if (textLength > 0 && out.get(offset + (int) length - 1) != '\n') {
            throw new IllegalArgumentException("CopyChunk text does not end with a row's newline");
        }
        out.putInt(offset + CopyChunkDescriptor.RELATION_ID_OFFSET, relationId);
        out.putInt(offset + CopyChunkDescriptor.ROW_COUNT_OFFSET, rowCount);
        out.putInt(offset + CopyChunkDescriptor.COLUMN_COUNT_OFFSET, columnCount);
        for (int k = 0; k < columnCount; k++) {
            if (columns[k] < 0 || columns[k] > 0xFFFF) {
                throw new IllegalArgumentException("column position " + columns[k] + " is outside 0..65535");
            }
            out.putShort(offset + CopyChunkDescriptor.COLUMNS_OFFSET + k * Short.BYTES, (short) columns[k]);
        }
        out.putInt(offset + CopyChunkDescriptor.textLengthOffset(columnCount), textLength);
        return fixedWriter.endRecord();
    }

    /** Writes a CopyChunk record, copying its text from {@code text[textOffset, textOffset + textLength)}. */
    public int encodeCopyChunk(ByteBuffer buffer, int offset, int maxLength, int relationId, int[] columns,
                               int columnCount, int rowCount, ByteBuffer text, int textOffset, int textLength) {
        RecordDescriptor.checkRegion(buffer, offset, maxLength, "maxLength");
        long length = CopyChunkDescriptor.copyChunkLength(Math.max(0, columnCount), textLength);
        if (columnCount >= 0 && columnCount <= Math.min(columns.length, CopyChunkDescriptor.MAX_COLUMNS)
            && textLength >= 0 && length <= maxLength) {
            buffer.put(offset + CopyChunkDescriptor.textOffset(columnCount), text, textOffset, textLength);
        }
        return encodeCopyChunkAround(buffer, offset, maxLength, relationId, columns, columnCount, rowCount, textLength);
    }

    /** Starts a Relation record; add columns to the returned writer, then {@code finish()}. */
    public RelationWriter startRelation(ByteBuffer buffer, int offset, int maxLength, int relationId,
                                        CharSequence schema, CharSequence table, char replicaIdentity) {
        return relationWriter.start(buffer, offset, maxLength, relationId, schema, table, replicaIdentity);
    }

    /** Starts an Insert; put the new tuple's columns, then {@code finish()}. */
    public RowWriter startInsert(ByteBuffer buffer, int offset, int maxLength, int relationId) {
        return rowWriter.start(buffer, offset, maxLength, RecordKind.INSERT, relationId, OldTupleKind.NONE);
    }

    /**
     * Starts an Update. With an old tuple ({@code KEY} or {@code FULL}) put its columns first, then
     * {@link RowWriter#startNewTuple()}; with {@code NONE} put the new tuple straight away.
     */
    public RowWriter startUpdate(ByteBuffer buffer, int offset, int maxLength, int relationId, OldTupleKind old) {
        return rowWriter.start(buffer, offset, maxLength, RecordKind.UPDATE, relationId, old);
    }

    /** Starts a Delete, whose only tuple is the old key ({@code KEY}) or old row ({@code FULL}). */
    public RowWriter startDelete(ByteBuffer buffer, int offset, int maxLength, int relationId, OldTupleKind old) {
        return rowWriter.start(buffer, offset, maxLength, RecordKind.DELETE, relationId, old);
    }

    /** Writes records whose length is known before the first byte. */
    private static final class FixedWriter extends EncodingCursor {
        ByteBuffer begin(ByteBuffer target, int offset, int maxLength, RecordKind kind, int length) {
            return begin(target, offset, maxLength, kind, 0, length);
        }

        ByteBuffer begin(ByteBuffer target, int offset, int maxLength, RecordKind kind, int flags, int length) {
            RecordDescriptor.checkRegion(target, offset, maxLength, "maxLength");
            this.kind = kind;
            this.recordOffset = offset;
            this.maxLength = maxLength;
            this.limit = offset + maxLength;
            this.position = offset;
            ensure(length);
            beginRecord(target, offset, maxLength, kind, flags);
            position = offset + length;
            return buffer;
        }

        @Override
        String describeField() {
            return "the whole record";
        }
    }
}
