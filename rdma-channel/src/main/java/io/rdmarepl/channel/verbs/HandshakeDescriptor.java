package io.rdmarepl.channel.verbs;

/**
 * The connection handshake of the verbs transport: three SEND messages after rdma_cm's ESTABLISHED,
 * before which neither side knows anything of the other's memory. All fields little-endian.
 *
 * <pre>
 *  every message: | magic "RDMAREPL-HS1" as int 0x31534852 | type (int) | ...
 *
 *  CHALLENGE  standby -> shipper   | reader nonce (32) |
 *  HELLO      shipper -> standby   | writer nonce (32) | feedback address (long) | feedback rkey (int) | mac (32) |
 *               mac = HMAC-SHA256(secret, "rdmarepl-hello/1" reader nonce, writer nonce, address, rkey)
 *  RING       standby -> shipper   | ring address (long) | rkey (int) | capacity (int) | epoch (int) |
 *                                  | ring id (long) | resume position (long) | mac (32) |
 *               mac = HMAC-SHA256(secret, "rdmarepl-ring/1" writer nonce, reader nonce, every field before it)
 *  REFUSED    standby -> shipper   | reason (int): 1 = the proof of the shared secret did not match |
 * </pre>
 *
 * The standby reveals its ring (address, rkey) only to a shipper whose HELLO proves the secret over
 * the standby's fresh nonce; the shipper writes only into a ring whose RING message proves it back
 * over the shipper's nonce. Before the RING message, the standby RDMA-WRITEs its current feedback
 * into the shipper's region on the same queue pair, so the shipper sees it once RING arrives. The
 * resume position is where a new writer starts ({@link io.rdmarepl.channel.ring.RingScanner}).
 */
final class HandshakeDescriptor {
    static final int MAGIC = 0x31534852;
    static final int CHALLENGE_TYPE = 1;
    static final int HELLO_TYPE = 2;
    static final int RING_TYPE = 3;
    static final int REFUSED_TYPE = 4;
    static final int REFUSED_BAD_PROOF = 1;

    static final int NONCE_LENGTH = 32;
    static final int MAC_LENGTH = 32;
    static final int MAGIC_OFFSET = 0;
    static final int TYPE_OFFSET = 4;
    static final int BODY_OFFSET = 8;

    static final int CHALLENGE_NONCE_OFFSET = BODY_OFFSET;

    static final int HELLO_NONCE_OFFSET = BODY_OFFSET;
    static final int HELLO_FEEDBACK_ADDRESS_OFFSET = HELLO_NONCE_OFFSET + NONCE_LENGTH;
    static final int HELLO_FEEDBACK_RKEY_OFFSET = HELLO_FEEDBACK_ADDRESS_OFFSET + Long.BYTES;
    static final int HELLO_MAC_OFFSET = HELLO_FEEDBACK_RKEY_OFFSET + Integer.BYTES;
    static final int HELLO_LENGTH = HELLO_MAC_OFFSET + MAC_LENGTH;

    static final int RING_ADDRESS_OFFSET = BODY_OFFSET;
    static final int RING_RKEY_OFFSET = RING_ADDRESS_OFFSET + Long.BYTES;
    static final int RING_CAPACITY_OFFSET = RING_RKEY_OFFSET + Integer.BYTES;
    static final int RING_EPOCH_OFFSET = RING_CAPACITY_OFFSET + Integer.BYTES;
    static final int RING_ID_OFFSET = RING_EPOCH_OFFSET + Integer.BYTES;
    static final int RING_RESUME_POSITION_OFFSET = RING_ID_OFFSET + Long.BYTES;
    static final int RING_MAC_OFFSET = RING_RESUME_POSITION_OFFSET + Long.BYTES;
    static final int RING_LENGTH = RING_MAC_OFFSET + MAC_LENGTH;

    static final int REFUSED_REASON_OFFSET = BODY_OFFSET;

    /** Bytes of the send and receive buffers for handshake messages. */
    static final int MESSAGE_CAPACITY = 128;

    static final String HELLO_LABEL = "rdmarepl-hello/1";
    static final String RING_LABEL = "rdmarepl-ring/1";

    private HandshakeDescriptor() {
    }
}
