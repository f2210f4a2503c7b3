package io.rdmarepl.format.codec;

import static io.rdmarepl.format.codec.RecordDescriptor.HEADER_LENGTH;

/**
 * Body of a Sequence record: the state of one sequence as the shipper read it on the primary
 * ({@code SELECT last_value, is_called FROM seq}), shipped between transactions because logical decoding
 * carries no sequence state. Strings are {@code | length (int) | UTF-8 bytes |}, as in
 * {@link RelationDescriptor}. Offsets count from the record's first byte.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |  record header (8 bytes), flags: bit 0 IS_CALLED              |  0
 *  +---------------------------------------------------------------+
 *  |                     lastValue (long)                          |  8
 *  +---------------------------------------------------------------+
 *  |            readTimeUs (long, epoch micros): when read         | 16
 *  +---------------------------------------------------------------+
 *  |            schema (string) | name (string)                    | 24
 *  ...                                                           ...
 * </pre>
 *
 * {@code lastValue} and {@link #IS_CALLED_FLAG} are the sequence's {@code last_value} and {@code is_called}:
 * {@code setval(seq, lastValue, isCalled)} recreates the state exactly (the next {@code nextval} returns
 * {@code lastValue + increment} when called, {@code lastValue} when not). Other flag bits must be zero, and
 * the body ends exactly after {@code name}.
 */
public final class SequenceDescriptor {
    /** Header flag: the sequence's {@code is_called}. */
    public static final int IS_CALLED_FLAG = 0x1;

    public static final int LAST_VALUE_OFFSET = HEADER_LENGTH;
    public static final int READ_TIME_OFFSET = LAST_VALUE_OFFSET + Long.BYTES;
    public static final int SCHEMA_OFFSET = READ_TIME_OFFSET + Long.BYTES;

    private SequenceDescriptor() {
    }

    /** Encoded length of a Sequence record whose schema and name take {@code schemaBytes} and {@code nameBytes} in UTF-8. */
    public static int sequenceLength(int schemaBytes, int nameBytes) {
        return SCHEMA_OFFSET + Integer.BYTES + schemaBytes + Integer.BYTES + nameBytes;
    }
}
