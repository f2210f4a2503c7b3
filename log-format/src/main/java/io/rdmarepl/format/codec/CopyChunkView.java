package io.rdmarepl.format.codec;

import static io.rdmarepl.format.codec.CopyChunkDescriptor.COLUMNS_OFFSET;
import static io.rdmarepl.format.codec.CopyChunkDescriptor.COLUMN_COUNT_OFFSET;
import static io.rdmarepl.format.codec.CopyChunkDescriptor.RELATION_ID_OFFSET;
import static io.rdmarepl.format.codec.CopyChunkDescriptor.ROW_COUNT_OFFSET;

import io.rdmarepl.format.RecordKind;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A CopyChunk record ({@link CopyChunkDescriptor}): a table's rows as COPY text, to be sent on as they are. The text
 * lies in {@link #buffer()} at {@link #textOffset()} for {@link #textLength()} bytes. Owned by the decoder, reused,
 * valid only during {@link RecordHandler#onCopyChunk}.
 */
public final class CopyChunkView {
    private ByteBuffer buffer;
    private int recordOffset;
    private int columnCount;
    private int textOffset;
    private int textLength;

    CopyChunkView() {
    }

    public int relationId() {
        return buffer.getInt(recordOffset + RELATION_ID_OFFSET);
    }

    public int rowCount() {
        return buffer.getInt(recordOffset + ROW_COUNT_OFFSET);
    }

    public int columnCount() {
        return columnCount;
    }

    /** Position of the {@code k}-th field of every row in the table's Relation record. */
    public int column(int k) {
        return buffer.getShort(recordOffset + COLUMNS_OFFSET + Objects.checkIndex(k, columnCount) * Short.BYTES) & 0xFFFF;
    }

    /** The buffer the record lies in (little-endian view; read with absolute gets only). */
    public ByteBuffer buffer() {
        return buffer;
    }

    /** Absolute offset of the first text byte in {@link #buffer()}. */
    public int textOffset() {
        return textOffset;
    }

    public int textLength() {
        return textLength;
    }

    /** Absolute offset of the record's first byte in {@link #buffer()}. */
    public int recordOffset() {
        return recordOffset;
    }

    void wrap(ByteBuffer buffer, int recordOffset, int bodyLength, int flags) {
        RecordKind kind = RecordKind.COPY_CHUNK;
        if (flags != 0) {
            throw FormatErrors.corrupt(kind, recordOffset, "unknown flags " + flags);
        }
        int end = recordOffset + RecordDescriptor.HEADER_LENGTH + bodyLength;
        FormatErrors.need(kind, recordOffset, recordOffset + RELATION_ID_OFFSET, end, COLUMNS_OFFSET - RELATION_ID_OFFSET,
            "relationId, rowCount and columnCount");
        int rows = buffer.getInt(recordOffset + ROW_COUNT_OFFSET);
        if (rows < 0) {
            throw FormatErrors.corrupt(kind, recordOffset, "negative rowCount " + rows);
        }
        int columns = buffer.getInt(recordOffset + COLUMN_COUNT_OFFSET);
        if (columns < 0 || columns > CopyChunkDescriptor.MAX_COLUMNS) {
            throw FormatErrors.corrupt(kind, recordOffset, "columnCount " + columns + " is outside 0.."
                + CopyChunkDescriptor.MAX_COLUMNS);
        }
        int lengthAt = recordOffset + CopyChunkDescriptor.textLengthOffset(columns);
        FormatErrors.need(kind, recordOffset, recordOffset + COLUMNS_OFFSET, end,
            (long) columns * Short.BYTES + Integer.BYTES, "columns and textLength");
        int text = buffer.getInt(lengthAt);
        int textAt = lengthAt + Integer.BYTES;
        if (text < 0 || text > end - textAt) {
            FormatErrors.checkLength(kind, recordOffset, textAt, end, text, "text");
        }
        if (textAt + text != end) {
            throw FormatErrors.corrupt(kind, recordOffset, "body has " + (end - textAt - text) + " bytes after the text");
        }
        if ((rows == 0) != (text == 0)) {
            throw FormatErrors.corrupt(kind, recordOffset, "rowCount " + rows + " with " + text + " bytes of text");
        }
        if (text > 0 && buffer.get(end - 1) != '\n') {
            throw FormatErrors.corrupt(kind, recordOffset, "text of " + text + " bytes does not end with a row's newline");
        }
        this.buffer = buffer;
        this.recordOffset = recordOffset;
        this.columnCount = columns;
        this.textOffset = textAt;
        this.textLength = text;
    }
}
