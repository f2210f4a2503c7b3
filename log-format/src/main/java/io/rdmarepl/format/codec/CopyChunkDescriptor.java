package io.rdmarepl.format.codec;

import static io.rdmarepl.format.codec.RecordDescriptor.HEADER_LENGTH;

/**
 * Body of a CopyChunk record: rows of one table as the primary's {@code COPY ... TO STDOUT} wrote them (text format,
 * the copy session's output settings: DateStyle ISO, IntervalStyle postgres, extra_float_digits 3, bytea_output hex,
 * client_encoding UTF8), shipped as they are. An applier pipes {@code text} into {@code COPY table (columns) FROM
 * STDIN} of the same format unchanged, so every value is the primary's own text by construction.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |  record header (8 bytes), kind 10, flags 0                    |  0
 *  +---------------------------------------------------------------+
 *  |                     relationId (int): OID                     |  8
 *  +---------------------------------------------------------------+
 *  |          rowCount (int): rows in text, each ended by \n       | 12
 *  +---------------------------------------------------------------+
 *  |    columnCount (int): fields in every row of text             | 16
 *  +-------------------------------+-------------------------------+
 *  |  column (u16) x columnCount: positions in the table's         | 20
 *  |  Relation record, in the order the rows hold them             |
 *  ...                                                           ...
 *  +---------------------------------------------------------------+
 *  |      textLength (int): bytes of text, to the body's end       | 20 + 2 x columnCount
 *  +---------------------------------------------------------------+
 *  |      text: COPY text-format rows (tab-separated fields,       | 24 + 2 x columnCount
 *  |      \N for NULL, backslash escapes, \n after every row)      |
 *  ...                                                           ...
 * </pre>
 *
 * A decoder checks that {@code textLength} reaches exactly to the body's end, that {@code text} is empty exactly when
 * {@code rowCount} is 0, and that a non-empty text ends with a newline (a row cut in two is refused, not applied). It
 * does not count the rows: the applier's COPY does, and must agree. The rows of one record are upserts with the same
 * semantics as the Inserts of an initial copy's chunk; a Relation for {@code relationId} precedes the first record.
 */
public final class CopyChunkDescriptor {
    /** The most columns a table has in PostgreSQL (1600) fit; positions are unsigned 16-bit. */
    public static final int MAX_COLUMNS = 0xFFFF;

    public static final int RELATION_ID_OFFSET = HEADER_LENGTH;
    public static final int ROW_COUNT_OFFSET = RELATION_ID_OFFSET + Integer.BYTES;
    public static final int COLUMN_COUNT_OFFSET = ROW_COUNT_OFFSET + Integer.BYTES;
    public static final int COLUMNS_OFFSET = COLUMN_COUNT_OFFSET + Integer.BYTES;

    private CopyChunkDescriptor() {
    }

    /** Offset of the {@code textLength} field of a record of {@code columnCount} columns. */
    public static int textLengthOffset(int columnCount) {
        return COLUMNS_OFFSET + columnCount * Short.BYTES;
    }

    /** Offset of the first text byte of a record of {@code columnCount} columns. */
    public static int textOffset(int columnCount) {
        return textLengthOffset(columnCount) + Integer.BYTES;
    }

    /** Encoded length of a record of {@code columnCount} columns and {@code textLength} bytes of text. */
    public static long copyChunkLength(int columnCount, int textLength) {
        return (long) textOffset(columnCount) + textLength;
    }
}
