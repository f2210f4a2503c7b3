package io.rdmarepl.channel.fragment;

import io.rdmarepl.channel.ring.FrameDescriptor;
import io.rdmarepl.channel.ring.RingWriter;
import java.nio.ByteBuffer;

/**
 * Writes messages of any length up to half the ring as one frame, or as fragments when larger than
 * a frame. A message is written whole or not at all: it starts only when the reader has freed room
 * for every fragment, so a reader never waits on half a message because of back-pressure.
 */
public final class MessageWriter {
    private final RingWriter writer;
    private final int maxFragmentLength;
    private final int maxMessageLength;

    public MessageWriter(RingWriter writer) {
        this.writer = writer;
        this.maxFragmentLength = writer.maxPayloadLength();
        this.maxMessageLength = writer.capacity() / 2;
    }

    /**
     * @return true when the whole message was committed, false when the ring has no room for it yet
     *     (nothing was written)
     * @throws IllegalArgumentException when the message can never fit
     * @throws IllegalStateException when the reader has moved to a newer epoch (this writer is fenced)
     */
    public boolean tryWrite(int type, ByteBuffer source, int offset, int length) {
        if (length <= maxFragmentLength) {
            return claimed(writer.tryClaim(type, length), source, offset, length, MessageFlags.UNFRAGMENTED);
        }
        if (length > maxMessageLength) {
            throw new IllegalArgumentException("message of " + length + " bytes exceeds half the ring ("
                    + maxMessageLength + " bytes); configure a larger ring capacity");
        }
        if (!hasRoomFor(length)) {
            return false;
        }
        int written = 0;
        while (written < length) {
            int fragment = Math.min(maxFragmentLength, length - written);
            int flags = (written == 0 ? MessageFlags.BEGIN : 0) | (written + fragment == length ? MessageFlags.END : 0);
            if (!claimed(writer.tryClaim(type, fragment), source, offset + written, fragment, flags)) {
                throw new IllegalStateException("ring had room for a " + length + "-byte message but refused fragment at "
                        + written + ": " + writer.position());
            }
            written += fragment;
        }
        return true;
    }

    public RingWriter ringWriter() {
        return writer;
    }

    private boolean claimed(int payloadOffset, ByteBuffer source, int offset, int length, int flags) {
        if (payloadOffset == RingWriter.FENCED) {
            throw new IllegalStateException("the reader accepts a newer epoch than " + writer.epoch() + ": this writer is fenced");
        }
        if (payloadOffset < 0) {
            return false;
        }
        writer.buffer().put(payloadOffset, source, offset, length);
        writer.commit(flags);
        return true;
    }

    /** Room for every fragment plus one padding frame at a lap end, as the reader last reported it. */
    private boolean hasRoomFor(int length) {
        int fragments = (length + maxFragmentLength - 1) / maxFragmentLength;
        long needed = (long) fragments * FrameDescriptor.alignedFrameLength(maxFragmentLength)
                + FrameDescriptor.alignedFrameLength(maxFragmentLength);
        if (writer.position() + needed <= writer.feedback().consumerPosition() + writer.capacity()) {
            return true;
        }
        writer.feedback().refresh();
        return writer.position() + needed <= writer.feedback().consumerPosition() + writer.capacity();
    }
}
