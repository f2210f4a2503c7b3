package io.rdmarepl.channel.ring;

import static io.rdmarepl.channel.ring.FrameDescriptor.CRC_FROM_END;
import static io.rdmarepl.channel.ring.FrameDescriptor.EPOCH_FROM_END;
import static io.rdmarepl.channel.ring.FrameDescriptor.HEADER_LENGTH;
import static io.rdmarepl.channel.ring.FrameDescriptor.LENGTH_OFFSET;
import static io.rdmarepl.channel.ring.FrameDescriptor.MIN_FRAME_LENGTH;
import static io.rdmarepl.channel.ring.FrameDescriptor.SEQUENCE_OFFSET;
import static io.rdmarepl.channel.ring.RingDescriptor.DATA_OFFSET;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Decides whether the bytes at a ring position form a complete frame ({@link FrameDescriptor}'s
 * commit rule), for the reader and for a writer that resumes a ring. Not thread-safe; allocation-free.
 */
final class FrameValidator {
    /** {@link #check} result: nothing (complete) at this position yet. */
    static final int ABSENT = 0;
    /** {@link #check} result: sequence matches but the frame is incomplete or torn. */
    static final int INCOMPLETE = -1;
    /** {@link #check} result: a complete frame tagged with another epoch. */
    static final int OTHER_EPOCH = -2;

    private final ByteBuffer region;
    private final ByteBuffer crcView;
    private final CRC32C crc = new CRC32C();
    private final int capacity;
    private final int mask;
    private final int maxFrameLength;

    FrameValidator(ByteBuffer region, int capacity) {
        this.region = region;
        this.crcView = region.duplicate();
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.maxFrameLength = FrameDescriptor.alignedFrameLength(FrameDescriptor.maxPayloadLength(capacity));
    }

    /** Bytes before the end of the lap at {@code position}. */
    int tail(long position) {
        return capacity - ((int) position & mask);
    }

    /** Region offset of the frame at {@code position}. */
    int offset(long position) {
        return DATA_OFFSET + ((int) position & mask);
    }

    /**
     * @return the aligned length of the complete frame of {@code epoch} at {@code position}, or
     *     {@link #ABSENT}, {@link #INCOMPLETE} or {@link #OTHER_EPOCH}
     */
    int check(long position, int epoch) {
        int tail = tail(position);
        int offset = DATA_OFFSET + ((int) position & mask);
        if (tail < MIN_FRAME_LENGTH || Ordered.getLongAcquire(region, offset + SEQUENCE_OFFSET) != position) {
            return ABSENT;
        }
        int lengthField = region.getInt(offset + LENGTH_OFFSET);
        if (lengthField == 0) {
            return ABSENT; // never-written memory at position 0 also reads as sequence 0
        }
        int frameLength = FrameDescriptor.alignedFromLengthField(lengthField);
        if (frameLength < MIN_FRAME_LENGTH || frameLength > maxFrameLength || frameLength > tail
                || !crcMatches(offset, frameLength)) {
            return INCOMPLETE;
        }
        // Fields read before the CRC may predate the frame's arrival (an older frame of the same
        // aligned size at this position); only values read after a matching CRC are the frame's own.
        int length = region.getInt(offset + LENGTH_OFFSET);
        if (length < HEADER_LENGTH || FrameDescriptor.alignedFromLengthField(length) != frameLength) {
            return INCOMPLETE;
        }
        if (region.getInt(offset + frameLength - EPOCH_FROM_END) != epoch) {
            return OTHER_EPOCH;
        }
        return frameLength;
    }

    /**
     * Where a writer of {@code epoch} must resume: after every complete frame of that epoch from
     * {@code consumerPosition} on. Frames a previous writer committed but never announced are kept
     * (the reader may already have read some of them); frames of another epoch are overwritten.
     */
    long resumePosition(long consumerPosition, int epoch) {
        long position = consumerPosition;
        while (position - consumerPosition < capacity) {
            int tail = tail(position);
            if (tail < MIN_FRAME_LENGTH) {
                position += tail;
                continue;
            }
            int frameLength = check(position, epoch);
            if (frameLength <= 0) {
                return position;
            }
            int offset = offset(position);
            boolean padding = region.getShort(offset + FrameDescriptor.TYPE_OFFSET) == FrameDescriptor.PADDING_TYPE;
            position += padding ? tail : frameLength;
        }
        return position;
    }

    private boolean crcMatches(int offset, int frameLength) {
        int checksumOffset = offset + frameLength - CRC_FROM_END;
        crc.reset();
        crcView.clear().position(offset).limit(checksumOffset);
        crc.update(crcView);
        return (int) crc.getValue() == region.getInt(checksumOffset);
    }
}
