package io.rdmarepl.shipper.lease;

/**
 * Layout of the lease file ({@code <fence.lease.dir>/rdmarepl-lease-<source.name>}), which the shipper and its lease
 * guard both map: the shipper writes when it last heard from a standby or the coordinator, the guard (another
 * process, which outlives the shipper) fences the primary when that is longer ago than the lease. All fields
 * little-endian; times are {@code CLOCK_MONOTONIC} nanoseconds ({@link System#nanoTime()} on Linux), which every
 * process of one boot reads alike, hence the boot id.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                 magic "RDLEASE1" (long), last                 |   0
 *  +---------------------------------------------------------------+
 *  |       layout version (int)    |     file length (int)         |   8
 *  +---------------------------------------------------------------+
 *  |           boot id (16 bytes, /proc/sys/kernel/random/boot_id) |  16
 *  +---------------------------------------------------------------+
 *  |           primary hash (long, FNV-1a of the primary's text)   |  32
 *  +---------------------------------------------------------------+
 *  |  primary text length (int)    |  primary text (80 bytes UTF-8:|  40
 *  |  host:port/database, cut)  ...                                |
 *  +---------------------------------------------------------------+
 *  |                               |  crc32c (int) of [8, 124)     | 120
 *  +===============================================================+
 *  |  shipper sequence (long): odd while the shipper writes        | 128
 *  +---------------------------------------------------------------+
 *  |  shipper pid (long)                                           | 136
 *  +---------------------------------------------------------------+
 *  |  lease state (int)            |  contact text length (int)    | 144
 *  +---------------------------------------------------------------+
 *  |  lease (long, ns)                                             | 152
 *  +---------------------------------------------------------------+
 *  |  last contact (long, ns): a standby's feedback or a renewal   | 160
 *  +---------------------------------------------------------------+
 *  |  published (long, ns): when the shipper wrote this record     | 168
 *  +---------------------------------------------------------------+
 *  |  contact text (48 bytes UTF-8: "standby b", "coordinator")    | 176
 *  +---------------------------------------------------------------+
 *  |  crc32c (int) of [136, 224)   |  reserved to byte 256         | 224
 *  +===============================================================+
 *  |  guard sequence (long): odd while the guard writes            | 256
 *  +---------------------------------------------------------------+
 *  |  guard pid (long)                                             | 264
 *  +---------------------------------------------------------------+
 *  |  checked (long, ns): the guard's last look at the lease       | 272
 *  +---------------------------------------------------------------+
 *  |  watched lease state (int)    |  fence state (int)            | 280
 *  +---------------------------------------------------------------+
 *  |  watched lease (long, ns): as the guard last read it          | 288
 *  +---------------------------------------------------------------+
 *  |  watched last contact (long, ns): as the guard last read it   | 296
 *  +---------------------------------------------------------------+
 *  |  lapsed contact (long, ns): the last contact whose lapse the  | 304
 *  |  guard fenced or is fencing; 0 = none                         |
 *  +---------------------------------------------------------------+
 *  |  fence started (long, ns)                                     | 312
 *  +---------------------------------------------------------------+
 *  |  fence done (long, ns); 0 = not done                          | 320
 *  +---------------------------------------------------------------+
 *  |  attempts (int)               |  last error length (int)      | 328
 *  +---------------------------------------------------------------+
 *  |  last error (128 bytes UTF-8, cut)                            | 336
 *  +---------------------------------------------------------------+
 *  |  crc32c (int) of [264, 464)   |  reserved to byte 512         | 464
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * The header (0..127) is written once, by the process that creates the file: the magic last, so a process that sees
 * the magic sees the rest. The shipper record (128..255) is written only by the shipper, the guard record
 * (256..511) only by the guard; they sit on separate cache lines because different processes write them. A record
 * is written as a sequence lock: the sequence is made odd, the fields and their CRC are stored, and the sequence is
 * made even again. Storing the even sequence is what makes a record complete. A reader takes a record only when the
 * sequence was even and unchanged around its copy and the CRC matches; a writer killed halfway leaves an odd
 * sequence or a bad CRC, which readers report as such and never take for a value.
 */
public final class LeaseFileDescriptor {
    /** "RDLEASE1" read as a little-endian long. */
    public static final long MAGIC = 0x31455341454C4452L;
    public static final int LAYOUT_VERSION = 1;
    public static final int CACHE_LINE_LENGTH = 64;
    public static final int FILE_LENGTH = 512;
    public static final int PRIMARY_TEXT_CAPACITY = 80;
    public static final int CONTACT_TEXT_CAPACITY = 48;
    public static final int ERROR_TEXT_CAPACITY = 128;

    public static final int MAGIC_OFFSET = 0;
    public static final int LAYOUT_VERSION_OFFSET;
    public static final int FILE_LENGTH_OFFSET;
    public static final int BOOT_ID_OFFSET;
    public static final int PRIMARY_HASH_OFFSET;
    public static final int PRIMARY_TEXT_LENGTH_OFFSET;
    public static final int PRIMARY_TEXT_OFFSET;
    public static final int HEADER_CRC_OFFSET;

    public static final int SHIPPER_SEQUENCE_OFFSET;
    public static final int SHIPPER_PID_OFFSET;
    public static final int LEASE_STATE_OFFSET;
    public static final int CONTACT_TEXT_LENGTH_OFFSET;
    public static final int LEASE_NS_OFFSET;
    public static final int LAST_CONTACT_NS_OFFSET;
    public static final int PUBLISHED_NS_OFFSET;
    public static final int CONTACT_TEXT_OFFSET;
    public static final int SHIPPER_CRC_OFFSET;

    public static final int GUARD_SEQUENCE_OFFSET;
    public static final int GUARD_PID_OFFSET;
    public static final int CHECKED_NS_OFFSET;
    public static final int WATCHED_STATE_OFFSET;
    public static final int FENCE_STATE_OFFSET;
    public static final int WATCHED_LEASE_NS_OFFSET;
    public static final int WATCHED_CONTACT_NS_OFFSET;
    public static final int LAPSED_CONTACT_NS_OFFSET;
    public static final int FENCE_STARTED_NS_OFFSET;
    public static final int FENCE_DONE_NS_OFFSET;
    public static final int ATTEMPTS_OFFSET;
    public static final int ERROR_TEXT_LENGTH_OFFSET;
    public static final int ERROR_TEXT_OFFSET;
    public static final int GUARD_CRC_OFFSET;

    static {
        LAYOUT_VERSION_OFFSET = MAGIC_OFFSET + Long.BYTES;
        FILE_LENGTH_OFFSET = LAYOUT_VERSION_OFFSET + Integer.BYTES;
        BOOT_ID_OFFSET = FILE_LENGTH_OFFSET + Integer.BYTES;
        PRIMARY_HASH_OFFSET = BOOT_ID_OFFSET + 2 * Long.BYTES;
        PRIMARY_TEXT_LENGTH_OFFSET = PRIMARY_HASH_OFFSET + Long.BYTES;
        PRIMARY_TEXT_OFFSET = PRIMARY_TEXT_LENGTH_OFFSET + Integer.BYTES;
        HEADER_CRC_OFFSET = PRIMARY_TEXT_OFFSET + PRIMARY_TEXT_CAPACITY;

        SHIPPER_SEQUENCE_OFFSET = 2 * CACHE_LINE_LENGTH;
        SHIPPER_PID_OFFSET = SHIPPER_SEQUENCE_OFFSET + Long.BYTES;
        LEASE_STATE_OFFSET = SHIPPER_PID_OFFSET + Long.BYTES;
        CONTACT_TEXT_LENGTH_OFFSET = LEASE_STATE_OFFSET + Integer.BYTES;
        LEASE_NS_OFFSET = CONTACT_TEXT_LENGTH_OFFSET + Integer.BYTES;
        LAST_CONTACT_NS_OFFSET = LEASE_NS_OFFSET + Long.BYTES;
        PUBLISHED_NS_OFFSET = LAST_CONTACT_NS_OFFSET + Long.BYTES;
        CONTACT_TEXT_OFFSET = PUBLISHED_NS_OFFSET + Long.BYTES;
        SHIPPER_CRC_OFFSET = CONTACT_TEXT_OFFSET + CONTACT_TEXT_CAPACITY;

        GUARD_SEQUENCE_OFFSET = 4 * CACHE_LINE_LENGTH;
        GUARD_PID_OFFSET = GUARD_SEQUENCE_OFFSET + Long.BYTES;
        CHECKED_NS_OFFSET = GUARD_PID_OFFSET + Long.BYTES;
        WATCHED_STATE_OFFSET = CHECKED_NS_OFFSET + Long.BYTES;
        FENCE_STATE_OFFSET = WATCHED_STATE_OFFSET + Integer.BYTES;
        WATCHED_LEASE_NS_OFFSET = FENCE_STATE_OFFSET + Integer.BYTES;
        WATCHED_CONTACT_NS_OFFSET = WATCHED_LEASE_NS_OFFSET + Long.BYTES;
        LAPSED_CONTACT_NS_OFFSET = WATCHED_CONTACT_NS_OFFSET + Long.BYTES;
        FENCE_STARTED_NS_OFFSET = LAPSED_CONTACT_NS_OFFSET + Long.BYTES;
        FENCE_DONE_NS_OFFSET = FENCE_STARTED_NS_OFFSET + Long.BYTES;
        ATTEMPTS_OFFSET = FENCE_DONE_NS_OFFSET + Long.BYTES;
        ERROR_TEXT_LENGTH_OFFSET = ATTEMPTS_OFFSET + Integer.BYTES;
        ERROR_TEXT_OFFSET = ERROR_TEXT_LENGTH_OFFSET + Integer.BYTES;
        GUARD_CRC_OFFSET = ERROR_TEXT_OFFSET + ERROR_TEXT_CAPACITY;

        checkLayout();
    }

    private LeaseFileDescriptor() {
    }

    /** The records end before the next one starts, and the file holds them all. */
    private static void checkLayout() {
        if (HEADER_CRC_OFFSET + Integer.BYTES > SHIPPER_SEQUENCE_OFFSET
                || SHIPPER_CRC_OFFSET + Integer.BYTES > GUARD_SEQUENCE_OFFSET
                || GUARD_CRC_OFFSET + Integer.BYTES > FILE_LENGTH) {
            throw new IllegalStateException("lease file records overlap: header ends at " + (HEADER_CRC_OFFSET + Integer.BYTES)
                    + ", shipper record at " + (SHIPPER_CRC_OFFSET + Integer.BYTES) + ", guard record at " + (GUARD_CRC_OFFSET + Integer.BYTES));
        }
    }

    /**
     * @throws LeaseFileException naming the file and the length when a file is too short to be a lease file
     */
    public static void checkLength(String file, long length) {
        if (length < FILE_LENGTH) {
            throw new LeaseFileException(file + " is " + length + " bytes long, a lease file " + FILE_LENGTH
                    + " (a file of something else, or one its creator did not finish)");
        }
    }
}
