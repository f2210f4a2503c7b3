package io.rdmarepl.format.codec;

import static io.rdmarepl.format.codec.RecordDescriptor.HEADER_LENGTH;

/**
 * Bodies of the fixed-size records: Begin, Commit and Heartbeat. Times are microseconds since the Unix
 * epoch (UTC); LSNs are unsigned 64-bit positions. Offsets count from the record's first byte. Flags are 0
 * except on Begin, where bit 0 is {@link #BEGIN_SNAPSHOT_CHUNK_FLAG}.
 *
 * <pre>
 *  Begin (bodyLength 24)
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                   record header (8 bytes)                     |  0
 *  +---------------------------------------------------------------+
 *  |                        txId (long)                            |  8
 *  +---------------------------------------------------------------+
 *  |                      commitLsn (long)                         | 16
 *  +---------------------------------------------------------------+
 *  |                 commitTimeUs (long, epoch micros)             | 24
 *  +---------------------------------------------------------------+
 *
 *  Commit (bodyLength 32)
 *  +---------------------------------------------------------------+
 *  |                   record header (8 bytes)                     |  0
 *  +---------------------------------------------------------------+
 *  |                        txId (long)                            |  8
 *  +---------------------------------------------------------------+
 *  |                      commitLsn (long)                         | 16
 *  +---------------------------------------------------------------+
 *  |                  endLsn (long): end of the commit record      | 24
 *  +---------------------------------------------------------------+
 *  |                 commitTimeUs (long, epoch micros)             | 32
 *  +---------------------------------------------------------------+
 *
 *  Heartbeat (bodyLength 16)
 *  +---------------------------------------------------------------+
 *  |                   record header (8 bytes)                     |  0
 *  +---------------------------------------------------------------+
 *  |                    timeUs (long, epoch micros)                |  8
 *  +---------------------------------------------------------------+
 *  |           lastLsn (long): last position the shipper saw       | 16
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class TransactionDescriptor {
    /**
     * Begin flag: this transaction is a chunk of an initial copy taken at {@code commitLsn} and does not
     * complete it. An applier applies it but keeps its position, so a copy cut short is redone from the
     * start; the copy's last chunk is a plain Begin with the same {@code commitLsn}.
     */
    public static final int BEGIN_SNAPSHOT_CHUNK_FLAG = 0x1;

    public static final int BEGIN_TX_ID_OFFSET = HEADER_LENGTH;
    public static final int BEGIN_COMMIT_LSN_OFFSET = BEGIN_TX_ID_OFFSET + Long.BYTES;
    public static final int BEGIN_COMMIT_TIME_OFFSET = BEGIN_COMMIT_LSN_OFFSET + Long.BYTES;
    public static final int BEGIN_LENGTH = BEGIN_COMMIT_TIME_OFFSET + Long.BYTES;

    public static final int COMMIT_TX_ID_OFFSET = HEADER_LENGTH;
    public static final int COMMIT_COMMIT_LSN_OFFSET = COMMIT_TX_ID_OFFSET + Long.BYTES;
    public static final int COMMIT_END_LSN_OFFSET = COMMIT_COMMIT_LSN_OFFSET + Long.BYTES;
    public static final int COMMIT_COMMIT_TIME_OFFSET = COMMIT_END_LSN_OFFSET + Long.BYTES;
    public static final int COMMIT_LENGTH = COMMIT_COMMIT_TIME_OFFSET + Long.BYTES;

    public static final int HEARTBEAT_TIME_OFFSET = HEADER_LENGTH;
    public static final int HEARTBEAT_LAST_LSN_OFFSET = HEARTBEAT_TIME_OFFSET + Long.BYTES;
    public static final int HEARTBEAT_LENGTH = HEARTBEAT_LAST_LSN_OFFSET + Long.BYTES;

    private TransactionDescriptor() {
    }
}
