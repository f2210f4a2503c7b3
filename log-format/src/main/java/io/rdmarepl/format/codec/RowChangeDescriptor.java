package io.rdmarepl.format.codec;

import static io.rdmarepl.format.codec.RecordDescriptor.HEADER_LENGTH;

/**
 * Body of Insert, Update and Delete records, and the layout of a tuple.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |  record header (8 bytes), flags bits 0-1: old tuple kind      |  0
 *  +---------------------------------------------------------------+
 *  |                     relationId (int): OID                     |  8
 *  +---------------------------------------------------------------+
 *  |     old tuple, present when the old tuple kind is KEY or FULL | 12
 *  +---------------------------------------------------------------+
 *  |     new tuple, present in Insert and Update, never in Delete  |
 *  +---------------------------------------------------------------+
 *
 *  tuple
 *  +---------------------------------------------------------------+
 *  |                    columnCount (int)                          | +0
 *  +---------------------------------------------------------------+
 *  |          valuesLength (int): bytes of the values below        | +4
 *  +---------------------------------------------------------------+
 *  |      value x columnCount, in attribute order (ValueDescriptor)| +8
 *  ...                                                           ...
 * </pre>
 *
 * Old tuple kind ({@link io.rdmarepl.format.OldTupleKind} code): 0 none, 1 the replica identity key
 * columns only, 2 the full old row (REPLICA IDENTITY FULL). Insert always has 0. Other flag bits are zero.
 * A tuple's values must add up to exactly {@code valuesLength} bytes, and the tuples to exactly the body.
 */
public final class RowChangeDescriptor {
    public static final int OLD_TUPLE_KIND_MASK = 0x3;

    public static final int RELATION_ID_OFFSET = HEADER_LENGTH;
    public static final int FIRST_TUPLE_OFFSET = RELATION_ID_OFFSET + Integer.BYTES;

    public static final int TUPLE_COLUMN_COUNT_OFFSET = 0;
    public static final int TUPLE_VALUES_LENGTH_OFFSET = TUPLE_COLUMN_COUNT_OFFSET + Integer.BYTES;
    public static final int TUPLE_HEADER_LENGTH = TUPLE_VALUES_LENGTH_OFFSET + Integer.BYTES;

    private RowChangeDescriptor() {
    }
}
