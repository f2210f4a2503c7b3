package io.rdmarepl.channel.ring;

/**
 * Layout of a ring region: the memory the standby registers (or maps) and the shipper writes into
 * with one-sided writes. All fields little-endian.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                    magic "RDMARING" (long)                    |  0
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                     layout version (int)                      |  8
 *  +---------------------------------------------------------------+
 *  |               data capacity in bytes (int, 2^n)               | 12
 *  +---------------------------------------------------------------+
 *  |                          epoch (int)                          | 16
 *  +---------------------------------------------------------------+
 *  |                       reserved (int, 0)                       | 20
 *  +---------------------------------------------------------------+
 *  |                        ring id (long)                         | 24
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                     reserved to byte 64                       | 32
 *  +---------------------------------------------------------------+
 *  |     producer position (long, written by the writer after      | 64
 *  |     its frames; monitoring and wake-up, never correctness)    |
 *  +---------------------------------------------------------------+
 *  |     writer's doorbell sleep word (long): odd while the writer | 72
 *  |     awaits the reader's next feedback (asleep on its doorbell,|
 *  |     or polling where it has none)                             |
 *  +---------------------------------------------------------------+
 *  |     writer's doorbell address (int) |  reserved to byte 128   | 80
 *  +---------------------------------------------------------------+
 *  |                 data area: capacity bytes of frames           | 128
 *  ...                                                           ...
 * </pre>
 *
 * The header line (0..63) is written only by the ring's owner (the reader side): the magic last,
 * so a writer that sees the magic sees the rest. The producer-position line (64..127) is written
 * only by the writer. They sit on separate cache lines because different hosts write them.
 *
 * <p>The writer's doorbell mirrors the reader's ({@link FeedbackDescriptor}): a writer waiting for an
 * acknowledgement stores an odd, ever-new sleep word, and a reader that publishes feedback while it is odd rings
 * the bell at the address (for shared memory, a UDP port on the loopback; 0: none) once for that word. The reader
 * also takes an odd word for a shipper whose primary's commits wait for it, and applies what it holds at once rather
 * than lingering for more ({@link RingReader#writerAwaitsFeedback}); a writer without a doorbell (verbs) polls for the
 * feedback and holds the word odd meanwhile ({@link RingWriter#announceFeedbackAwaited}), and nothing rings it. A new
 * writer stores the even word it continues from, so a word left odd by a writer that died asleep does not stay.
 */
public final class RingDescriptor {
    /** "RDMARING" read as a little-endian long. */
    public static final long MAGIC = 0x474E4952414D4452L;
    public static final int LAYOUT_VERSION = 1;

    public static final int CACHE_LINE_LENGTH = 64;
    public static final int MAGIC_OFFSET = 0;
    public static final int LAYOUT_VERSION_OFFSET;
    public static final int CAPACITY_OFFSET;
    public static final int EPOCH_OFFSET;
    public static final int RING_ID_OFFSET;
    public static final int PRODUCER_POSITION_OFFSET;
    public static final int WRITER_DOORBELL_SLEEP_OFFSET;
    public static final int WRITER_DOORBELL_ADDRESS_OFFSET;
    public static final int DATA_OFFSET;

    /** Smallest data area: room for a few maximum-size frames. */
    public static final int MIN_CAPACITY = 4096;
    /** Largest data area: positions are indexed with an int mask. */
    public static final int MAX_CAPACITY = 1 << 30;

    static {
        LAYOUT_VERSION_OFFSET = MAGIC_OFFSET + Long.BYTES;
        CAPACITY_OFFSET = LAYOUT_VERSION_OFFSET + Integer.BYTES;
        EPOCH_OFFSET = CAPACITY_OFFSET + Integer.BYTES;
        RING_ID_OFFSET = EPOCH_OFFSET + 2 * Integer.BYTES;
        PRODUCER_POSITION_OFFSET = CACHE_LINE_LENGTH;
        WRITER_DOORBELL_SLEEP_OFFSET = PRODUCER_POSITION_OFFSET + Long.BYTES;
        WRITER_DOORBELL_ADDRESS_OFFSET = WRITER_DOORBELL_SLEEP_OFFSET + Long.BYTES;
        DATA_OFFSET = PRODUCER_POSITION_OFFSET + CACHE_LINE_LENGTH;
    }

    private RingDescriptor() {
    }

    /** Bytes of the whole ring region for a data area of {@code capacity} bytes. */
    public static int regionLength(int capacity) {
        return DATA_OFFSET + capacity;
    }

    /**
     * @throws IllegalArgumentException naming the value when the capacity is not a power of two
     *     within [{@value #MIN_CAPACITY}, 2^30]
     */
    public static void checkCapacity(long capacity) {
        if (capacity < MIN_CAPACITY || capacity > MAX_CAPACITY || Long.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("ring capacity must be a power of two between "
                    + MIN_CAPACITY + " and " + MAX_CAPACITY + " bytes: " + capacity);
        }
    }
}
