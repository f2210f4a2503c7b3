package io.rdmarepl.format.codec;

import static io.rdmarepl.format.codec.RecordDescriptor.HEADER_LENGTH;

/**
 * Body of a Truncate record: the relations truncated together by one {@code TRUNCATE} statement.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |  record header (8 bytes), flags: bit 0 CASCADE,               |  0
 *  |                                  bit 1 RESTART IDENTITY       |
 *  +---------------------------------------------------------------+
 *  |                  relationCount (int)                          |  8
 *  +---------------------------------------------------------------+
 *  |             relationId (int) x relationCount                  | 12
 *  ...                                                           ...
 * </pre>
 */
public final class TruncateDescriptor {
    public static final int CASCADE_FLAG = 0x1;
    public static final int RESTART_IDENTITY_FLAG = 0x2;

    public static final int RELATION_COUNT_OFFSET = HEADER_LENGTH;
    public static final int RELATION_IDS_OFFSET = RELATION_COUNT_OFFSET + Integer.BYTES;

    private TruncateDescriptor() {
    }

    /** Encoded length of a Truncate record naming {@code relationCount} relations. */
    public static int truncateLength(int relationCount) {
        return RELATION_IDS_OFFSET + relationCount * Integer.BYTES;
    }
}
