package io.rdmarepl.channel.ring;

import java.nio.ByteBuffer;

/**
 * For a ring's owner: where a (re)connecting writer must resume. Remote transports run this on the
 * reader side at connect time and hand the answer to the writer ({@link WriterEnd#resumePosition()}).
 */
public final class RingScanner {
    private RingScanner() {
    }

    /**
     * @param region           the ring region
     * @param consumerPosition the reader's position
     * @return the position after every complete frame of the ring's current epoch from {@code consumerPosition} on
     */
    public static long resumePosition(ByteBuffer region, long consumerPosition) {
        ByteBuffer le = Ordered.littleEndian(region);
        int capacity = RingHeader.verify(le, "ring");
        return new FrameValidator(le, capacity).resumePosition(consumerPosition, RingHeader.epoch(le));
    }
}
