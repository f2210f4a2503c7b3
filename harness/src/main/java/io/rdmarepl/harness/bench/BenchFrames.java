package io.rdmarepl.harness.bench;

import io.rdmarepl.channel.ring.FrameDescriptor;

/**
 * Frames the channel benchmark sends. Payload layout (little-endian):
 *
 * <pre>
 *  0   stamp (long): System.nanoTime() the frame was due to be sent (monotonic, same host)
 *  8   number (long): frames sent before this one
 *  16  filler up to the frame size
 * </pre>
 */
final class BenchFrames {
    static final int WARMUP = 1;
    static final int LATENCY = 2;
    static final int THROUGHPUT = 3;
    static final int END = 4;

    static final int STAMP_OFFSET = 0;
    static final int NUMBER_OFFSET = 8;
    static final int MIN_PAYLOAD = 16;

    private BenchFrames() {
    }

    /** Payload bytes of a frame that occupies {@code frameSize} bytes of the ring. */
    static int payloadLength(int frameSize) {
        return frameSize - FrameDescriptor.HEADER_LENGTH - FrameDescriptor.TRAILER_LENGTH;
    }

    static int minFrameSize() {
        return FrameDescriptor.alignedFrameLength(MIN_PAYLOAD);
    }
}
