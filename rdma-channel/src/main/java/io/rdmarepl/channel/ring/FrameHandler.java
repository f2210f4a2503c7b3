package io.rdmarepl.channel.ring;

import java.nio.ByteBuffer;

/** Receives frames from a {@link RingReader}. */
@FunctionalInterface
public interface FrameHandler {
    /**
     * Called once per valid frame, in ring order. The payload lives in the ring itself and is valid
     * only until this method returns: the writer may reuse the bytes as soon as the reader moves on.
     */
    void onFrame(int type, int flags, ByteBuffer buffer, int payloadOffset, int payloadLength);
}
