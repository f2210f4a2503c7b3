package io.rdmarepl.channel.softverbs;

/**
 * Layout of one message of the software provider's wire protocol: a fixed header, then
 * {@code segmentLength} payload bytes. One TCP connection carries one RC queue-pair pair, in order,
 * both ways. All fields little-endian.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |          type (int): one of the *_TYPE constants              |  0
 *  +---------------------------------------------------------------+
 *  |          flags (int): LAST_SEGMENT, ACK_REQUESTED             |  4
 *  +---------------------------------------------------------------+
 *  |          psn (long): the work request's sequence number       |  8
 *  +---------------------------------------------------------------+
 *  |          remote address (long) of the whole work request      | 16
 *  +---------------------------------------------------------------+
 *  |          rkey (int)              |  total length (int)        | 24
 *  +---------------------------------------------------------------+
 *  |          segment offset (int)    |  segment length (int)      | 32
 *  +---------------------------------------------------------------+
 *  |          immediate (int)         |  status / qp number (int)  | 40
 *  +---------------------------------------------------------------+
 *  |          segment payload ...                                  | 48
 * </pre>
 *
 * A work request longer than {@link #MAX_SEGMENT} travels as several segments with the same psn;
 * every segment names the whole request's range, so the responder checks rkey, bounds and access
 * once, on the first segment, before a single byte lands. Acknowledgements are cumulative by psn.
 */
final class SoftWireDescriptor {
    static final int CONNECT_TYPE = 1;
    static final int ACCEPT_TYPE = 2;
    static final int DISCONNECT_TYPE = 3;
    static final int WRITE_TYPE = 4;
    static final int WRITE_IMM_TYPE = 5;
    static final int SEND_TYPE = 6;
    static final int READ_REQUEST_TYPE = 7;
    static final int READ_RESPONSE_TYPE = 8;
    static final int ACK_TYPE = 9;
    static final int NAK_TYPE = 10;

    static final int LAST_SEGMENT_FLAG = 1;
    static final int ACK_REQUESTED_FLAG = 2;

    static final int TYPE_OFFSET = 0;
    static final int FLAGS_OFFSET;
    static final int PSN_OFFSET;
    static final int REMOTE_ADDRESS_OFFSET;
    static final int RKEY_OFFSET;
    static final int TOTAL_LENGTH_OFFSET;
    static final int SEGMENT_OFFSET_OFFSET;
    static final int SEGMENT_LENGTH_OFFSET;
    static final int IMMEDIATE_OFFSET;
    static final int STATUS_OFFSET;
    static final int HEADER_LENGTH;

    /** Largest payload of one message: bounds the receive buffer, not the work request. */
    static final int MAX_SEGMENT = 64 * 1024;

    static {
        FLAGS_OFFSET = TYPE_OFFSET + Integer.BYTES;
        PSN_OFFSET = FLAGS_OFFSET + Integer.BYTES;
        REMOTE_ADDRESS_OFFSET = PSN_OFFSET + Long.BYTES;
        RKEY_OFFSET = REMOTE_ADDRESS_OFFSET + Long.BYTES;
        TOTAL_LENGTH_OFFSET = RKEY_OFFSET + Integer.BYTES;
        SEGMENT_OFFSET_OFFSET = TOTAL_LENGTH_OFFSET + Integer.BYTES;
        SEGMENT_LENGTH_OFFSET = SEGMENT_OFFSET_OFFSET + Integer.BYTES;
        IMMEDIATE_OFFSET = SEGMENT_LENGTH_OFFSET + Integer.BYTES;
        STATUS_OFFSET = IMMEDIATE_OFFSET + Integer.BYTES;
        HEADER_LENGTH = STATUS_OFFSET + Integer.BYTES;
    }

    private SoftWireDescriptor() {
    }
}
