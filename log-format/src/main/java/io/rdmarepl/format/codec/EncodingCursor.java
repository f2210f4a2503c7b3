package io.rdmarepl.format.codec;

import static io.rdmarepl.format.codec.RecordDescriptor.BODY_LENGTH_OFFSET;
import static io.rdmarepl.format.codec.RecordDescriptor.FLAGS_OFFSET;
import static io.rdmarepl.format.codec.RecordDescriptor.HEADER_LENGTH;
import static io.rdmarepl.format.codec.RecordDescriptor.KIND_OFFSET;
import static io.rdmarepl.format.codec.RecordDescriptor.VERSION;
import static io.rdmarepl.format.codec.RecordDescriptor.VERSION_OFFSET;

import io.rdmarepl.format.RecordCapacityException;
import io.rdmarepl.format.RecordKind;
import java.nio.ByteBuffer;

/**
 * Write position inside one record being encoded into a caller's {@code (buffer, offset, maxLength)}.
 * Every write is preceded by {@link #ensure}, so nothing lands past {@code offset + maxLength}.
 */
abstract class EncodingCursor {
    private final LittleEndianView view = new LittleEndianView();
    ByteBuffer buffer;
    RecordKind kind;
    int recordOffset;
    int maxLength;
    int limit;
    int position;

    /** Starts a record: checks the region, writes the header with a zero body length. */
    final void beginRecord(ByteBuffer target, int offset, int maxLength, RecordKind kind, int flags) {
        RecordDescriptor.checkRegion(target, offset, maxLength, "maxLength");
        this.buffer = view.of(target);
        this.kind = kind;
        this.recordOffset = offset;
        this.maxLength = maxLength;
        this.limit = offset + maxLength;
        this.position = offset;
        ensure(HEADER_LENGTH);
        buffer.put(offset + VERSION_OFFSET, (byte) VERSION);
        buffer.put(offset + KIND_OFFSET, (byte) kind.code());
        buffer.putShort(offset + FLAGS_OFFSET, (short) flags);
        buffer.putInt(offset + BODY_LENGTH_OFFSET, 0);
        position = offset + HEADER_LENGTH;
    }

    /** Fails unless {@code bytes} more bytes fit before the caller's limit; returns the write index. */
    final int ensure(long bytes) {
        int remaining = limit - position;
        if (bytes > remaining) {
            throw new RecordCapacityException(kind.displayName() + " record at offset " + recordOffset
                + " does not fit in maxLength " + maxLength + ": " + describeField() + " needs " + bytes
                + " bytes, " + remaining + " remain", (int) Math.min(Integer.MAX_VALUE, bytes), remaining);
        }
        return position;
    }

    /** Writes the body length; returns the record's total length. */
    final int endRecord() {
        int length = position - recordOffset;
        buffer.putInt(recordOffset + BODY_LENGTH_OFFSET, length - HEADER_LENGTH);
        return length;
    }

    /** Names the field being written, for capacity messages (called on failure only). */
    abstract String describeField();
}
