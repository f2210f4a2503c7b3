package io.rdmarepl.format.codec;

/**
 * The header every change record starts with. All fields little-endian, whatever the order setting
 * of the {@code ByteBuffer} that carries them.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |  version (u8) |   kind (u8)   |          flags (u16)          |  0
 *  +---------------+---------------+-------------------------------+
 *  |         bodyLength (int): bytes after this header             |  4
 *  +---------------------------------------------------------------+
 *  |                         body ...                              |  8
 *  ...                                                           ...
 * </pre>
 *
 * <ul>
 *   <li>{@code version} is {@link #VERSION}; a decoder refuses any other, so the format can evolve by
 *       bumping it.</li>
 *   <li>{@code kind} is a {@link io.rdmarepl.format.RecordKind} code: 1 Begin, 2 Commit, 3 Relation, 4 Insert,
 *       5 Update, 6 Delete, 7 Truncate, 8 Heartbeat, 9 Sequence, 10 CopyChunk. New kinds are added with new codes
 *       and the version stays 1: a decoder that does not know a code refuses the record ("unknown record kind 10")
 *       rather than skip it, so an applier older than a kind pauses at the first record of it and applies nothing
 *       of it; a shipper that writes a kind needs appliers at least as new (CopyChunk: 2026-12).</li>
 *   <li>{@code flags} depend on the kind ({@link RowChangeDescriptor}, {@link TruncateDescriptor},
 *       {@link SequenceDescriptor}); bits a
 *       kind does not define must be zero.</li>
 *   <li>{@code bodyLength} counts the body exactly: a record occupies {@code HEADER_LENGTH + bodyLength}
 *       bytes, and a decoder rejects a body whose fields do not add up to it.</li>
 * </ul>
 *
 * The bodies are described in {@link TransactionDescriptor} (Begin, Commit, Heartbeat),
 * {@link RelationDescriptor}, {@link RowChangeDescriptor} (Insert, Update, Delete), {@link TruncateDescriptor},
 * {@link SequenceDescriptor}, {@link CopyChunkDescriptor} and {@link ValueDescriptor} (column values). Offsets in those classes count from the record's first byte.
 */
public final class RecordDescriptor {
    /** The only version this codec reads and writes. */
    public static final int VERSION = 1;

    public static final int VERSION_OFFSET = 0;
    public static final int KIND_OFFSET = VERSION_OFFSET + Byte.BYTES;
    public static final int FLAGS_OFFSET = KIND_OFFSET + Byte.BYTES;
    public static final int BODY_LENGTH_OFFSET = FLAGS_OFFSET + Short.BYTES;
    public static final int HEADER_LENGTH = BODY_LENGTH_OFFSET + Integer.BYTES;

    private RecordDescriptor() {
    }

    /**
     * Checks that a caller-supplied region can be addressed in {@code buffer}.
     *
     * @throws IllegalArgumentException naming the bad value
     */
    public static void checkRegion(java.nio.ByteBuffer buffer, int offset, int length, String lengthName) {
        if (offset < 0 || length < 0 || offset > buffer.capacity() - length) {
            throw new IllegalArgumentException("region offset=" + offset + " " + lengthName + "=" + length
                + " does not lie inside buffer capacity=" + buffer.capacity());
        }
    }
}
