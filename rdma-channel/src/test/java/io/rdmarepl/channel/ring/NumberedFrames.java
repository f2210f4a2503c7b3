package io.rdmarepl.channel.ring;

import java.nio.ByteBuffer;

/**
 * A stream of numbered frames ({@link Payloads}) for transport tests: the writing loop, and a
 * handler that checks every frame it receives, in order, byte for byte.
 */
public final class NumberedFrames {
    private NumberedFrames() {
    }

    /** Writes frames 0..frames-1, spinning while back-pressured and publishing every {@code publishEvery} frames. */
    public static void write(RingWriter writer, int type, long frames, int maxPayload, int publishEvery) {
        for (long number = 0; number < frames; ) {
            int length = Payloads.lengthOf(number, maxPayload);
            int offset = writer.tryClaim(type, length);
            if (offset < 0) {
                writer.publish();
                Thread.onSpinWait();
                continue;
            }
            Payloads.fill(writer.buffer(), offset, length, number++);
            writer.commit();
            if (number % publishEvery == 0) {
                writer.publish();
            }
        }
        writer.publish();
    }

    /** Checks each frame against the next expected number; keeps the first problem. */
    public static final class Checker implements FrameHandler {
        private final int type;
        private final int maxPayload;
        private long next;
        private String failure;

        public Checker(int type, int maxPayload) {
            this.type = type;
            this.maxPayload = maxPayload;
        }

        @Override
        public void onFrame(int frameType, int flags, ByteBuffer buffer, int payloadOffset, int payloadLength) {
            long number = next++;
            String problem = frameType != type ? "frame " + number + " has type " + frameType
                    : Payloads.check(buffer, payloadOffset, payloadLength, number, Payloads.lengthOf(number, maxPayload));
            if (problem != null && failure == null) {
                failure = problem;
            }
        }

        /** Frames received so far. */
        public long received() {
            return next;
        }

        /** The first problem, or null. */
        public String failure() {
            return failure;
        }
    }
}
