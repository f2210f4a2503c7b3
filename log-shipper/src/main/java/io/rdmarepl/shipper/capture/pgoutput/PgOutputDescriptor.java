package io.rdmarepl.shipper.capture.pgoutput;

/**
 * The pgoutput messages {@link PgOutputDecoder} reads: PostgreSQL's "Logical Replication Message Formats",
 * protocol versions 1 to 4, requested with {@code messages 'true'}, {@code streaming 'on'} (or {@code 'parallel'})
 * and without {@code binary} or {@code two_phase}. One XLogData payload holds exactly one message. All integers are
 * big-endian (network order); LSNs are unsigned 64-bit; times are microseconds since 2000-01-01 00:00 UTC
 * (PostgreSQL's epoch, {@link #POSTGRES_EPOCH_OFFSET_US} before the Unix one); xids are unsigned 32-bit; a
 * String is UTF-8 (the walsender converts to {@code client_encoding}, which must be UTF8) ending in a NUL byte.
 *
 * <p>Fixed-size messages, offsets from the type byte:
 * <pre>
 *  Begin 'B'           0      1                 9                 17         21
 *                      +------+-----------------+-----------------+----------+
 *                      | 'B'  | finalLsn (i64)  | commitTime (i64)| xid (i32)|
 *                      +------+-----------------+-----------------+----------+
 *  Commit 'C'          0      1       2                 10                18                 26
 *                      +------+-------+-----------------+-----------------+------------------+
 *                      | 'C'  | flags | commitLsn (i64) | endLsn (i64)    | commitTime (i64) |
 *                      +------+-------+-----------------+-----------------+------------------+
 *  Stream Start 'S'    0      1           5               6
 *                      +------+-----------+---------------+
 *                      | 'S'  | xid (i32) | firstSegment  |   1 on the transaction's first segment, else 0
 *                      +------+-----------+---------------+
 *  Stream Stop 'E'     | 'E'  |                               1 byte
 *  Stream Commit 'c'   0      1           5       6                 14                22                 30
 *                      +------+-----------+-------+-----------------+-----------------+------------------+
 *                      | 'c'  | xid (i32) | flags | commitLsn (i64) | endLsn (i64)    | commitTime (i64) |
 *                      +------+-----------+-------+-----------------+-----------------+------------------+
 *  Stream Abort 'A'    0      1           5              9                 17                25
 *                      +------+-----------+--------------+-----------------+-----------------+
 *                      | 'A'  | xid (i32) | subxid (i32) | abortLsn (i64)  | abortTime (i64) |   the last two only
 *                      +------+-----------+--------------+-----------------+-----------------+   with proto 4 and
 *                                                                                                 streaming 'parallel'
 * </pre>
 *
 * <p>Variable-size messages, field by field ({@code [xid]}: an i32 present only inside a Stream Start / Stop block,
 * where it is the xid of the (sub)transaction that made the change; TupleData below):
 * <pre>
 *  Origin 'O'     +0 'O' | +1 originLsn (i64) | +9 name (String)
 *  Relation 'R'   +0 'R' | [xid] | relation OID (i32) | namespace (String, "" = pg_catalog) | name (String)
 *                 | replica identity (i8: d n f i) | column count (i16)
 *                 | per column: flags (i8, bit 0 = replica identity key) | name (String) | type OID (i32) | typmod (i32)
 *  Type 'Y'       +0 'Y' | [xid] | type OID (i32) | namespace (String, "" = pg_catalog) | name (String)
 *                 (for a domain: the OID of the domain, the namespace and name of its base type)
 *  Insert 'I'     +0 'I' | [xid] | relation OID (i32) | 'N' | TupleData
 *  Update 'U'     +0 'U' | [xid] | relation OID (i32) | optional: 'K' (old key) or 'O' (old row) + TupleData
 *                 | 'N' | TupleData
 *  Delete 'D'     +0 'D' | [xid] | relation OID (i32) | 'K' or 'O' | TupleData
 *  Truncate 'T'   +0 'T' | [xid] | relation count n (i32) | flags (i8: bit 0 CASCADE, bit 1 RESTART IDENTITY)
 *                 | relation OID (i32) x n
 *  Message 'M'    +0 'M' | [xid] | flags (i8: bit 0 transactional) | lsn (i64) | prefix (String)
 *                 | content length n (i32) | content (n bytes)
 *
 *  TupleData      column count (i16) | per column, one of:
 *                   'n'                                 NULL
 *                   'u'                                 unchanged TOASTed value (not sent)
 *                   't' | length n (i32) | n bytes      the type's text output, UTF-8, no terminator
 *                   'b' | length n (i32) | n bytes      binary send output: only with binary 'true', refused here
 * </pre>
 */
public final class PgOutputDescriptor {
    public static final byte BEGIN = 'B';
    public static final byte COMMIT = 'C';
    public static final byte ORIGIN = 'O';
    public static final byte RELATION = 'R';
    public static final byte TYPE = 'Y';
    public static final byte INSERT = 'I';
    public static final byte UPDATE = 'U';
    public static final byte DELETE = 'D';
    public static final byte TRUNCATE = 'T';
    public static final byte MESSAGE = 'M';
    public static final byte STREAM_START = 'S';
    public static final byte STREAM_STOP = 'E';
    public static final byte STREAM_COMMIT = 'c';
    public static final byte STREAM_ABORT = 'A';

    /** Two-phase messages: sent only when {@code two_phase} is requested, which this decoder never does. */
    public static final byte BEGIN_PREPARE = 'b';
    public static final byte PREPARE = 'P';
    public static final byte COMMIT_PREPARED = 'K';
    public static final byte ROLLBACK_PREPARED = 'r';
    public static final byte STREAM_PREPARE = 'p';

    public static final byte TUPLE_NEW = 'N';
    public static final byte TUPLE_OLD_KEY = 'K';
    public static final byte TUPLE_OLD_ROW = 'O';

    public static final byte COLUMN_NULL = 'n';
    public static final byte COLUMN_UNCHANGED_TOAST = 'u';
    public static final byte COLUMN_TEXT = 't';
    public static final byte COLUMN_BINARY = 'b';

    public static final int TYPE_OFFSET = 0;

    public static final int BEGIN_FINAL_LSN_OFFSET = TYPE_OFFSET + Byte.BYTES;
    public static final int BEGIN_COMMIT_TIME_OFFSET = BEGIN_FINAL_LSN_OFFSET + Long.BYTES;
    public static final int BEGIN_XID_OFFSET = BEGIN_COMMIT_TIME_OFFSET + Long.BYTES;
    public static final int BEGIN_LENGTH = BEGIN_XID_OFFSET + Integer.BYTES;

    public static final int COMMIT_FLAGS_OFFSET = TYPE_OFFSET + Byte.BYTES;
    public static final int COMMIT_COMMIT_LSN_OFFSET = COMMIT_FLAGS_OFFSET + Byte.BYTES;
    public static final int COMMIT_END_LSN_OFFSET = COMMIT_COMMIT_LSN_OFFSET + Long.BYTES;
    public static final int COMMIT_COMMIT_TIME_OFFSET = COMMIT_END_LSN_OFFSET + Long.BYTES;
    public static final int COMMIT_LENGTH = COMMIT_COMMIT_TIME_OFFSET + Long.BYTES;

    public static final int STREAM_START_XID_OFFSET = TYPE_OFFSET + Byte.BYTES;
    public static final int STREAM_START_FIRST_SEGMENT_OFFSET = STREAM_START_XID_OFFSET + Integer.BYTES;
    public static final int STREAM_START_LENGTH = STREAM_START_FIRST_SEGMENT_OFFSET + Byte.BYTES;

    public static final int STREAM_STOP_LENGTH = TYPE_OFFSET + Byte.BYTES;

    public static final int STREAM_COMMIT_XID_OFFSET = TYPE_OFFSET + Byte.BYTES;
    public static final int STREAM_COMMIT_FLAGS_OFFSET = STREAM_COMMIT_XID_OFFSET + Integer.BYTES;
    public static final int STREAM_COMMIT_COMMIT_LSN_OFFSET = STREAM_COMMIT_FLAGS_OFFSET + Byte.BYTES;
    public static final int STREAM_COMMIT_END_LSN_OFFSET = STREAM_COMMIT_COMMIT_LSN_OFFSET + Long.BYTES;
    public static final int STREAM_COMMIT_COMMIT_TIME_OFFSET = STREAM_COMMIT_END_LSN_OFFSET + Long.BYTES;
    public static final int STREAM_COMMIT_LENGTH = STREAM_COMMIT_COMMIT_TIME_OFFSET + Long.BYTES;

    public static final int STREAM_ABORT_XID_OFFSET = TYPE_OFFSET + Byte.BYTES;
    public static final int STREAM_ABORT_SUBXID_OFFSET = STREAM_ABORT_XID_OFFSET + Integer.BYTES;
    public static final int STREAM_ABORT_LENGTH = STREAM_ABORT_SUBXID_OFFSET + Integer.BYTES;
    public static final int STREAM_ABORT_LSN_OFFSET = STREAM_ABORT_LENGTH;
    public static final int STREAM_ABORT_TIME_OFFSET = STREAM_ABORT_LSN_OFFSET + Long.BYTES;
    /** Length of a Stream Abort carrying abort LSN and time (proto 4, streaming 'parallel'). */
    public static final int STREAM_ABORT_PARALLEL_LENGTH = STREAM_ABORT_TIME_OFFSET + Long.BYTES;

    public static final int REPLICA_IDENTITY_KEY_FLAG = 0x1;
    public static final int TRUNCATE_CASCADE_FLAG = 0x1;
    public static final int TRUNCATE_RESTART_IDENTITY_FLAG = 0x2;
    public static final int MESSAGE_TRANSACTIONAL_FLAG = 0x1;

    /** Microseconds from 1970-01-01 to 2000-01-01 (UTC): add to a pgoutput time to get Unix epoch microseconds. */
    public static final long POSTGRES_EPOCH_OFFSET_US = 946_684_800_000_000L;

    private PgOutputDescriptor() {
    }

    /** The message's name for error messages, e.g. {@code Insert}; {@code null} for an unknown type byte. */
    public static String messageName(byte type) {
        switch (type) {
            case BEGIN: return "Begin";
            case COMMIT: return "Commit";
            case ORIGIN: return "Origin";
            case RELATION: return "Relation";
            case TYPE: return "Type";
            case INSERT: return "Insert";
            case UPDATE: return "Update";
            case DELETE: return "Delete";
            case TRUNCATE: return "Truncate";
            case MESSAGE: return "Message";
            case STREAM_START: return "Stream Start";
            case STREAM_STOP: return "Stream Stop";
            case STREAM_COMMIT: return "Stream Commit";
            case STREAM_ABORT: return "Stream Abort";
            case BEGIN_PREPARE: return "Begin Prepare";
            case PREPARE: return "Prepare";
            case COMMIT_PREPARED: return "Commit Prepared";
            case ROLLBACK_PREPARED: return "Rollback Prepared";
            case STREAM_PREPARE: return "Stream Prepare";
            default: return null;
        }
    }
}
