package io.rdmarepl.channel.ring;

/**
 * Layout of the feedback region: the reader's report to the writer, written by the reader (one
 * 64-byte one-sided write) into memory registered on the writer's side. All fields little-endian.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |   consumer position (long): the writer may fill up to this    |  0
 *  |   plus capacity                                               |
 *  +---------------------------------------------------------------+
 *  |   applied LSN (long): last source LSN committed on the replica|  8
 *  +---------------------------------------------------------------+
 *  |   durable LSN (long): last source LSN flushed on the replica  | 16
 *  +---------------------------------------------------------------+
 *  |   heartbeat time (long, microseconds since the Unix epoch)    | 24
 *  +---------------------------------------------------------------+
 *  |   update count (long): bumped on every report                 | 32
 *  +---------------------------------------------------------------+
 *  |   epoch (int) the reader accepts  |  crc32c (int) of [0, 44)  | 40
 *  +---------------------------------------------------------------+
 *  |   doorbell sleep word (long): odd while the reader sleeps     | 48
 *  +---------------------------------------------------------------+
 *  |   doorbell address (int)          |  reserved                 | 56
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * The writer reads the region while it may be changing: a report is taken only when its CRC
 * matches, otherwise the previous good report stands. All values only grow.
 *
 * <p>The doorbell words lie outside the CRC: each is one aligned word written alone, and the writer reads
 * them on every publish without copying the report. A reader whose transport has a doorbell
 * ({@link ReaderEnd#doorbell()}) stores an odd sleep word before it sleeps (a new one unless the last sleep was
 * neither rung nor followed by frames) and the even one after it when it wakes; a writer that publishes while
 * the word is odd rings the doorbell once for that word. The address says where the bell is: for shared memory,
 * a UDP port on the loopback; over verbs, 1 = an RDMA WRITE WITH IMMEDIATE on the ring's queue pair, which
 * completes one of the receives the reader keeps posted; 0 means there is none (and over verbs, that no receive
 * is posted: a ring would find none). Over verbs the reader writes [0, 48) as a report and [48, 64) alone when
 * it takes a new sleep word; the even word of a wake-up is not written (a writer rings each odd word once).
 */
public final class FeedbackDescriptor {
    public static final int CONSUMER_POSITION_OFFSET = 0;
    public static final int APPLIED_LSN_OFFSET;
    public static final int DURABLE_LSN_OFFSET;
    public static final int HEARTBEAT_TIME_US_OFFSET;
    public static final int UPDATE_COUNT_OFFSET;
    public static final int EPOCH_OFFSET;
    public static final int CRC_OFFSET;
    public static final int DOORBELL_SLEEP_OFFSET;
    public static final int DOORBELL_ADDRESS_OFFSET;
    /** Bytes the region occupies: one cache line. */
    public static final int REGION_LENGTH = 64;

    static {
        APPLIED_LSN_OFFSET = CONSUMER_POSITION_OFFSET + Long.BYTES;
        DURABLE_LSN_OFFSET = APPLIED_LSN_OFFSET + Long.BYTES;
        HEARTBEAT_TIME_US_OFFSET = DURABLE_LSN_OFFSET + Long.BYTES;
        UPDATE_COUNT_OFFSET = HEARTBEAT_TIME_US_OFFSET + Long.BYTES;
        EPOCH_OFFSET = UPDATE_COUNT_OFFSET + Long.BYTES;
        CRC_OFFSET = EPOCH_OFFSET + Integer.BYTES;
        DOORBELL_SLEEP_OFFSET = CRC_OFFSET + Integer.BYTES;
        DOORBELL_ADDRESS_OFFSET = DOORBELL_SLEEP_OFFSET + Long.BYTES;
    }

    private FeedbackDescriptor() {
    }
}
