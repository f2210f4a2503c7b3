package io.rdmarepl.format.codec;

import io.rdmarepl.format.RecordKind;
import java.nio.ByteBuffer;
import java.util.Objects;

/** A Truncate record: the relations truncated together and the statement's options. Reused by the decoder. */
public final class TruncateView {
    private ByteBuffer buffer;
    private int recordOffset;
    private int flags;
    private int relationCount;

    TruncateView() {
    }

    public int relationCount() {
        return relationCount;
    }

    public int relationId(int i) {
        return buffer.getInt(recordOffset + TruncateDescriptor.RELATION_IDS_OFFSET
            + Objects.checkIndex(i, relationCount) * Integer.BYTES);
    }

    /** TRUNCATE ... CASCADE. */
    public boolean cascade() {
        return (flags & TruncateDescriptor.CASCADE_FLAG) != 0;
    }

    /** TRUNCATE ... RESTART IDENTITY. */
    public boolean restartIdentity() {
        return (flags & TruncateDescriptor.RESTART_IDENTITY_FLAG) != 0;
    }

    void wrap(ByteBuffer buffer, int recordOffset, int bodyLength, int flags) {
        int known = TruncateDescriptor.CASCADE_FLAG | TruncateDescriptor.RESTART_IDENTITY_FLAG;
        if ((flags & ~known) != 0) {
            throw FormatErrors.corrupt(RecordKind.TRUNCATE, recordOffset, "unknown flags " + flags);
        }
        int end = recordOffset + RecordDescriptor.HEADER_LENGTH + bodyLength;
        FormatErrors.need(RecordKind.TRUNCATE, recordOffset, recordOffset + TruncateDescriptor.RELATION_COUNT_OFFSET,
            end, Integer.BYTES, "relationCount");
        int count = buffer.getInt(recordOffset + TruncateDescriptor.RELATION_COUNT_OFFSET);
        if (count < 0 || (long) TruncateDescriptor.RELATION_IDS_OFFSET + (long) count * Integer.BYTES
            != RecordDescriptor.HEADER_LENGTH + (long) bodyLength) {
            throw FormatErrors.corrupt(RecordKind.TRUNCATE, recordOffset, "relationCount " + count
                + " does not match body length " + bodyLength);
        }
        this.buffer = buffer;
        this.recordOffset = recordOffset;
        this.flags = flags;
        this.relationCount = count;
    }
}
