package io.rdmarepl.format.codec;

import static io.rdmarepl.format.codec.SequenceDescriptor.IS_CALLED_FLAG;
import static io.rdmarepl.format.codec.SequenceDescriptor.LAST_VALUE_OFFSET;
import static io.rdmarepl.format.codec.SequenceDescriptor.READ_TIME_OFFSET;
import static io.rdmarepl.format.codec.SequenceDescriptor.SCHEMA_OFFSET;

import io.rdmarepl.format.RecordKind;
import java.nio.ByteBuffer;

/**
 * A Sequence record: one sequence's {@code last_value} and {@code is_called} on the primary, and when they
 * were read. Names come as allocating {@code String}s or appended to a caller's {@code StringBuilder}; both
 * were checked to be well-formed UTF-8 before the handler is called. Owned by the decoder, reused, valid only
 * during {@link RecordHandler#onSequence}.
 */
public final class SequenceView {
    private final StringBuilder scratch = new StringBuilder();
    private ByteBuffer buffer;
    private int recordOffset;
    private int nameAt;
    private int flags;

    SequenceView() {
    }

    public long lastValue() {
        return buffer.getLong(recordOffset + LAST_VALUE_OFFSET);
    }

    public boolean isCalled() {
        return (flags & IS_CALLED_FLAG) != 0;
    }

    /** When the shipper read the state on the primary, microseconds since the Unix epoch (UTC). */
    public long readTimeUs() {
        return buffer.getLong(recordOffset + READ_TIME_OFFSET);
    }

    public String schema() {
        return string(recordOffset + SCHEMA_OFFSET);
    }

    public StringBuilder copySchema(StringBuilder out) {
        return append(recordOffset + SCHEMA_OFFSET, out);
    }

    /** The sequence's name, unqualified and unquoted. */
    public String name() {
        return string(nameAt);
    }

    public StringBuilder copyName(StringBuilder out) {
        return append(nameAt, out);
    }

    /** Validates the body: flags, both strings (lengths and UTF-8), nothing after the name. */
    void wrap(ByteBuffer buffer, int recordOffset, int bodyLength, int flags) {
        if ((flags & ~IS_CALLED_FLAG) != 0) {
            throw FormatErrors.corrupt(RecordKind.SEQUENCE, recordOffset, "unknown flags " + flags);
        }
        int end = recordOffset + RecordDescriptor.HEADER_LENGTH + bodyLength;
        FormatErrors.need(RecordKind.SEQUENCE, recordOffset, recordOffset + LAST_VALUE_OFFSET, end,
            SCHEMA_OFFSET - LAST_VALUE_OFFSET, "lastValue and readTimeUs");
        this.buffer = buffer;
        this.recordOffset = recordOffset;
        this.flags = flags;
        int schemaAt = recordOffset + SCHEMA_OFFSET;
        nameAt = skipString(schemaAt, end, "schema");
        int p = skipString(nameAt, end, "name");
        if (p != end) {
            throw FormatErrors.corrupt(RecordKind.SEQUENCE, recordOffset, "body has " + (end - p)
                + " bytes after the name");
        }
        scratch.setLength(0);
        append(schemaAt, scratch);
        scratch.setLength(0);
        append(nameAt, scratch);
    }

    private String string(int at) {
        scratch.setLength(0);
        return append(at, scratch).toString();
    }

    private StringBuilder append(int at, StringBuilder out) {
        int bad = Utf8.decode(buffer, at + Integer.BYTES, buffer.getInt(at), out);
        if (bad >= 0) {
            throw FormatErrors.corrupt(RecordKind.SEQUENCE, recordOffset, "malformed UTF-8 at offset " + bad);
        }
        return out;
    }

    private int skipString(int at, int end, String field) {
        if (Integer.BYTES > end - at) {
            FormatErrors.need(RecordKind.SEQUENCE, recordOffset, at, end, Integer.BYTES, field);
        }
        int length = buffer.getInt(at);
        if (length < 0 || length > end - at - Integer.BYTES) {
            FormatErrors.checkLength(RecordKind.SEQUENCE, recordOffset, at + Integer.BYTES, end, length, field);
        }
        return at + Integer.BYTES + length;
    }
}
