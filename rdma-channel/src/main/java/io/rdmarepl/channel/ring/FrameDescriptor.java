package io.rdmarepl.channel.ring;

/**
 * Layout of one frame in the ring's data area. All fields little-endian; frames start and end on
 * 8-byte boundaries and never straddle the end of the data area.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |          length (int): header + payload, unpadded             |  0
 *  +-------------------------------+-------------------------------+
 *  |          type (short)         |         flags (short)         |  4
 *  +-------------------------------+-------------------------------+
 *  |     sequence (long): the frame's own ring position, so a      |  8
 *  |     frame left over from an earlier lap never matches         |
 *  +---------------------------------------------------------------+
 *  |                        payload ...                            | 16
 *  ...                                                           ...
 *  +---------------------------------------------------------------+
 *  |              zero padding to (aligned length - 8)             |
 *  +---------------------------------------------------------------+
 *  |               epoch (int) of the writer's session             | aligned - 8
 *  +---------------------------------------------------------------+
 *  |      crc32c (int) of bytes [0, aligned - 4) of this frame     | aligned - 4
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * Commit rule: a frame at position {@code p} is complete, locally or remotely, exactly when its
 * sequence equals {@code p} and its CRC32C matches. Nothing relies on the order in which a NIC
 * places the bytes of a WRITE: a frame still arriving fails the CRC and is read again later, and
 * a frame from an earlier lap carries another sequence. In shared memory the writer also stores
 * the sequence last with release semantics, so a torn frame is rare there, but the CRC is what
 * decides, and a reader trusts only fields it reads after the CRC matched (a length read before
 * may belong to an older frame of the same aligned size). A frame whose epoch differs from the
 * ring header's epoch is refused, never delivered.
 *
 * <p>A {@link #PADDING_TYPE} frame means "the rest of this lap is empty". When fewer than
 * {@link #MIN_FRAME_LENGTH} bytes remain before the end of the data area, no frame fits at all,
 * and both sides skip to the next lap without one.
 */
public final class FrameDescriptor {
    public static final int LENGTH_OFFSET = 0;
    public static final int TYPE_OFFSET;
    public static final int FLAGS_OFFSET;
    public static final int SEQUENCE_OFFSET;
    public static final int HEADER_LENGTH;
    /** Epoch and CRC, counted back from the end of the aligned frame. */
    public static final int TRAILER_LENGTH = 2 * Integer.BYTES;
    public static final int EPOCH_FROM_END = TRAILER_LENGTH;
    public static final int CRC_FROM_END = Integer.BYTES;
    public static final int FRAME_ALIGNMENT = 8;
    public static final int MIN_FRAME_LENGTH;

    /** Reserved type: the remainder of the lap is padding. Application types are 1..32767. */
    public static final short PADDING_TYPE = 0;

    static {
        TYPE_OFFSET = LENGTH_OFFSET + Integer.BYTES;
        FLAGS_OFFSET = TYPE_OFFSET + Short.BYTES;
        SEQUENCE_OFFSET = FLAGS_OFFSET + Short.BYTES;
        HEADER_LENGTH = SEQUENCE_OFFSET + Long.BYTES;
        MIN_FRAME_LENGTH = HEADER_LENGTH + TRAILER_LENGTH;
    }

    private FrameDescriptor() {
    }

    /** Bytes a frame with {@code payloadLength} bytes of payload occupies in the ring. */
    public static int alignedFrameLength(int payloadLength) {
        return align(HEADER_LENGTH + payloadLength + TRAILER_LENGTH);
    }

    /** Aligned length of a frame whose length field holds {@code length}. */
    public static int alignedFromLengthField(int length) {
        return align(length + TRAILER_LENGTH);
    }

    /** Largest payload a ring of this capacity accepts: an eighth of the data area. */
    public static int maxPayloadLength(int capacity) {
        return capacity / 8 - HEADER_LENGTH - TRAILER_LENGTH;
    }

    static int align(int length) {
        return (length + FRAME_ALIGNMENT - 1) & -FRAME_ALIGNMENT;
    }
}
