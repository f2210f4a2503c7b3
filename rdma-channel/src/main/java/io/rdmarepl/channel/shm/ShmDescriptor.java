package io.rdmarepl.channel.shm;

import io.rdmarepl.channel.ring.FeedbackDescriptor;
import io.rdmarepl.channel.ring.RingDescriptor;

/**
 * Layout of a shared-memory channel file: the ring region followed by the feedback region. The
 * reader side creates the file (and owns the header), the writer side maps it.
 *
 * <pre>
 *  0                      ring header line ({@link RingDescriptor})
 *  64                     producer position line
 *  128                    data area, capacity bytes
 *  128 + capacity         feedback region ({@link FeedbackDescriptor}), 64 bytes
 *  192 + capacity         end of file
 * </pre>
 */
public final class ShmDescriptor {
    private ShmDescriptor() {
    }

    public static int feedbackOffset(int capacity) {
        return RingDescriptor.regionLength(capacity);
    }

    public static int fileLength(int capacity) {
        return feedbackOffset(capacity) + FeedbackDescriptor.REGION_LENGTH;
    }
}
