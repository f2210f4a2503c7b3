package io.rdmarepl.channel.verbs;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** The byte strings each side signs during the handshake ({@link HandshakeDescriptor}). */
final class Handshake {
    private Handshake() {
    }

    static byte[] helloProof(byte[] readerNonce, byte[] writerNonce, long feedbackAddress, int feedbackRkey) {
        byte[] label = HandshakeDescriptor.HELLO_LABEL.getBytes(StandardCharsets.US_ASCII);
        return ByteBuffer.allocate(label.length + 2 * HandshakeDescriptor.NONCE_LENGTH + Long.BYTES + Integer.BYTES)
                .order(ByteOrder.LITTLE_ENDIAN)
                .put(label).put(readerNonce).put(writerNonce).putLong(feedbackAddress).putInt(feedbackRkey).array();
    }

    static byte[] ringProof(byte[] writerNonce, byte[] readerNonce, byte[] ringFields) {
        byte[] label = HandshakeDescriptor.RING_LABEL.getBytes(StandardCharsets.US_ASCII);
        return ByteBuffer.allocate(label.length + 2 * HandshakeDescriptor.NONCE_LENGTH + ringFields.length)
                .put(label).put(writerNonce).put(readerNonce).put(ringFields).array();
    }
}
