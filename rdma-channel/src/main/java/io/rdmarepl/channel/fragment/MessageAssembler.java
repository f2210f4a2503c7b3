package io.rdmarepl.channel.fragment;

import io.rdmarepl.channel.ring.FrameHandler;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Joins fragments back into messages, handed over in the ring's byte order (little-endian). A message that fits one frame is handed over in place,
 * without a copy; fragments are gathered in a buffer that grows only when a larger message arrives.
 * A message left half-written by a writer that restarted is dropped (and counted) when the next
 * message begins.
 */
public final class MessageAssembler implements FrameHandler {
    private final MessageHandler handler;
    private ByteBuffer assembly = ByteBuffer.allocateDirect(64 * 1024).order(ByteOrder.LITTLE_ENDIAN);
    private int assembled;
    private int assemblingType = -1;
    private long droppedPartialMessages;

    public MessageAssembler(MessageHandler handler) {
        this.handler = handler;
    }

    @Override
    public void onFrame(int type, int flags, ByteBuffer buffer, int payloadOffset, int payloadLength) {
        boolean begin = (flags & MessageFlags.BEGIN) != 0;
        boolean end = (flags & MessageFlags.END) != 0;
        if (begin && assemblingType >= 0) {
            droppedPartialMessages++;
            assemblingType = -1;
        }
        if (begin && end) {
            handler.onMessage(type, buffer, payloadOffset, payloadLength);
            return;
        }
        if (begin) {
            assemblingType = type;
            assembled = 0;
        } else if (assemblingType != type) {
            droppedPartialMessages++; // a continuation whose beginning we never saw
            assemblingType = -1;
            return;
        }
        append(buffer, payloadOffset, payloadLength);
        if (end) {
            assemblingType = -1;
            handler.onMessage(type, assembly, 0, assembled);
        }
    }

    /** Partial messages discarded because their writer started over. */
    public long droppedPartialMessages() {
        return droppedPartialMessages;
    }

    private void append(ByteBuffer buffer, int offset, int length) {
        if (assembled + length > assembly.capacity()) {
            ByteBuffer larger = ByteBuffer.allocateDirect(Math.max(assembly.capacity() * 2, assembled + length))
                    .order(ByteOrder.LITTLE_ENDIAN);
            larger.put(0, assembly, 0, assembled);
            assembly = larger;
        }
        assembly.put(assembled, buffer, offset, length);
        assembled += length;
    }
}
