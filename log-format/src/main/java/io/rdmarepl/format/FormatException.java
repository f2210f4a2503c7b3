package io.rdmarepl.format;

/**
 * A record cannot be decoded: unknown version, truncated, or corrupt. The message names the record
 * kind (when the header was readable), the record's offset and the field, e.g.
 * {@code truncated Insert record at offset 48: new tuple column 3 (text) length 900 exceeds remaining 12 bytes}.
 */
public class FormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final RecordKind kind;
    private final int recordOffset;

    public FormatException(RecordKind kind, int recordOffset, String message) {
        super(message);
        this.kind = kind;
        this.recordOffset = recordOffset;
    }

    /** The record's kind, or {@code null} when the header itself could not be read. */
    public RecordKind kind() {
        return kind;
    }

    /** Offset of the record's first byte in the buffer handed to the decoder. */
    public int recordOffset() {
        return recordOffset;
    }
}
