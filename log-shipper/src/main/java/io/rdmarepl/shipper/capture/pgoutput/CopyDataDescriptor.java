package io.rdmarepl.shipper.capture.pgoutput;

/**
 * The messages carried inside CopyData ({@code 'd'}) once {@code START_REPLICATION} has switched the connection
 * to copy-both mode (PostgreSQL docs, "Streaming Replication Protocol"). All integers big-endian (network order).
 * Offsets count from the first byte of the CopyData body, that is after the CopyData header
 * {@code 'd' | int32 length}, whose length counts itself and the body but not the {@code 'd'}.
 *
 * <p>The fields are not 4-byte aligned (a type byte leads), so the layouts are tables rather than rulers.
 * <pre>
 * XLogData ('w'), server to client: one chunk of the output plugin's stream (one pgoutput message)
 *   offset size field
 *        0    1 'w'
 *        1    8 walStart   logical: the LSN of the record the message comes from when it is the last
 *                          message written for that record (a Commit, say), else 0 (InvalidXLogRecPtr)
 *        9    8 walEnd     logical: the same value as walStart (physical: end of WAL on the server)
 *       17    8 sendTime   server clock, microseconds since 2000-01-01 UTC
 *       25    n payload    one pgoutput message, first byte its type ('B', 'R', 'I', 'C', ...)
 *
 * Primary keepalive ('k'), server to client: 18 bytes
 *        0    1 'k'
 *        1    8 walEnd          end of WAL on the server
 *        9    8 sendTime        server clock, microseconds since 2000-01-01 UTC
 *       17    1 replyRequested  1: the server wants a status update now (else it times us out)
 *
 * Standby status update ('r'), client to server: 34 bytes, 39 with the CopyData header
 *        0    1 'r'
 *        1    8 written         last WAL byte + 1 received and written
 *        9    8 flushed         last WAL byte + 1 durable (logical slot: becomes confirmed_flush_lsn)
 *       17    8 applied         last WAL byte + 1 applied
 *       25    8 clock           client clock, microseconds since 2000-01-01 UTC
 *       33    1 replyRequested  1: answer with a keepalive at once
 * </pre>
 * The walsender takes positions as given (it does not check them against what it sent); {@link StandbyStatus}
 * keeps them monotonic.
 */
public final class CopyDataDescriptor {
    /** Frontend and backend message type of CopyData. */
    public static final byte COPY_DATA = 'd';

    public static final byte XLOG_DATA = 'w';
    public static final int XLOG_WAL_START_OFFSET = 1;
    public static final int XLOG_WAL_END_OFFSET = XLOG_WAL_START_OFFSET + Long.BYTES;
    public static final int XLOG_SEND_TIME_OFFSET = XLOG_WAL_END_OFFSET + Long.BYTES;
    public static final int XLOG_HEADER_LENGTH = XLOG_SEND_TIME_OFFSET + Long.BYTES;

    public static final byte KEEPALIVE = 'k';
    public static final int KEEPALIVE_WAL_END_OFFSET = 1;
    public static final int KEEPALIVE_SEND_TIME_OFFSET = KEEPALIVE_WAL_END_OFFSET + Long.BYTES;
    public static final int KEEPALIVE_REPLY_REQUESTED_OFFSET = KEEPALIVE_SEND_TIME_OFFSET + Long.BYTES;
    public static final int KEEPALIVE_LENGTH = KEEPALIVE_REPLY_REQUESTED_OFFSET + Byte.BYTES;

    public static final byte STATUS_UPDATE = 'r';
    public static final int STATUS_WRITTEN_OFFSET = 1;
    public static final int STATUS_FLUSHED_OFFSET = STATUS_WRITTEN_OFFSET + Long.BYTES;
    public static final int STATUS_APPLIED_OFFSET = STATUS_FLUSHED_OFFSET + Long.BYTES;
    public static final int STATUS_CLOCK_OFFSET = STATUS_APPLIED_OFFSET + Long.BYTES;
    public static final int STATUS_REPLY_REQUESTED_OFFSET = STATUS_CLOCK_OFFSET + Long.BYTES;
    public static final int STATUS_LENGTH = STATUS_REPLY_REQUESTED_OFFSET + Byte.BYTES;

    /** Microseconds from 1970-01-01 to 2000-01-01 UTC, PostgreSQL's epoch. */
    public static final long POSTGRES_EPOCH_OFFSET_US = 946_684_800_000_000L;

    private CopyDataDescriptor() {
    }

    /** The wall clock in PostgreSQL's form: microseconds since 2000-01-01 UTC (millisecond resolution). */
    public static long nowPostgresUs() {
        return System.currentTimeMillis() * 1000L - POSTGRES_EPOCH_OFFSET_US;
    }
}
