package io.rdmarepl.channel.ring;

import static io.rdmarepl.channel.ring.FrameDescriptor.CRC_FROM_END;
import static io.rdmarepl.channel.ring.FrameDescriptor.EPOCH_FROM_END;
import static io.rdmarepl.channel.ring.FrameDescriptor.FLAGS_OFFSET;
import static io.rdmarepl.channel.ring.FrameDescriptor.HEADER_LENGTH;
import static io.rdmarepl.channel.ring.FrameDescriptor.LENGTH_OFFSET;
import static io.rdmarepl.channel.ring.FrameDescriptor.MIN_FRAME_LENGTH;
import static io.rdmarepl.channel.ring.FrameDescriptor.PADDING_TYPE;
import static io.rdmarepl.channel.ring.FrameDescriptor.SEQUENCE_OFFSET;
import static io.rdmarepl.channel.ring.FrameDescriptor.TYPE_OFFSET;
import static io.rdmarepl.channel.ring.RingDescriptor.DATA_OFFSET;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Single reader of a ring. Delivers a frame only when its sequence is the next expected position,
 * its CRC32C matches and its epoch is the ring's ({@link FrameDescriptor}); anything else is a
 * frame not yet (fully) arrived, or a refused one, and is looked at again on the next poll.
 * Reports its consumer position through a {@link FeedbackPublisher} after every poll that moved.
 *
 * <p>Not thread-safe: one thread polls. Allocation-free after construction.
 */
public final class RingReader {
    private final ReaderEnd end;
    private final ByteBuffer region;
    private final ByteBuffer crcView;
    private final CRC32C crc = new CRC32C();
    private final FeedbackPublisher feedback;
    private final int capacity;
    private final int mask;
    private final int maxFrameLength;

    private long position;
    private long framesRead;
    private long incompleteReads;
    private long refusedEpochFrames;
    private long lastRefusedPosition = -1;

    public RingReader(ReaderEnd end) {
        this.end = end;
        this.region = Ordered.littleEndian(end.ringRegion());
        this.crcView = region.duplicate();
        this.capacity = RingHeader.verify(region, end.uri());
        this.mask = capacity - 1;
        this.maxFrameLength = FrameDescriptor.alignedFrameLength(FrameDescriptor.maxPayloadLength(capacity));
        this.feedback = new FeedbackPublisher(end);
        publishFeedback();
    }

    /**
     * Delivers up to {@code frameLimit} frames to {@code handler}.
     *
     * @return frames delivered (padding excluded); 0 means nothing was ready
     */
    public int poll(FrameHandler handler, int frameLimit) {
        final int epoch = RingHeader.epoch(region);
        final long start = position;
        int delivered = 0;
        while (delivered < frameLimit) {
            int index = (int) position & mask;
            int tail = capacity - index;
            if (tail < MIN_FRAME_LENGTH) {
                position += tail;
                continue;
            }
            int offset = DATA_OFFSET + index;
            if (Ordered.getLongAcquire(region, offset + SEQUENCE_OFFSET) != position) {
                break;
            }
            int lengthField = region.getInt(offset + LENGTH_OFFSET);
            if (lengthField == 0) {
                break; // never-written memory at position 0 also reads as sequence 0: nothing there yet
            }
            int frameLength = FrameDescriptor.alignedFromLengthField(lengthField);
            if (frameLength < FrameDescriptor.MIN_FRAME_LENGTH || frameLength > maxFrameLength || frameLength > tail
                    || !crcMatches(offset, frameLength)) {
                incompleteReads++;
                break;
            }
            // Fields read before the CRC may predate the frame's arrival (an older frame of the same
            // aligned size); only values read after a matching CRC are the frame's own.
            int length = region.getInt(offset + LENGTH_OFFSET);
            if (length < HEADER_LENGTH || FrameDescriptor.alignedFromLengthField(length) != frameLength) {
                incompleteReads++;
                break;
            }
            if (region.getInt(offset + frameLength - EPOCH_FROM_END) != epoch) {
                if (lastRefusedPosition != position) {
                    lastRefusedPosition = position;
                    refusedEpochFrames++;
                }
                break;
            }
            int type = region.getShort(offset + TYPE_OFFSET);
            if (type == PADDING_TYPE) {
                position += tail;
                continue;
            }
            handler.onFrame(type, region.getShort(offset + FLAGS_OFFSET), region, offset + HEADER_LENGTH,
                    length - HEADER_LENGTH);
            position += frameLength;
            framesRead++;
            delivered++;
        }
        if (position != start) {
            publishFeedback();
        }
        return delivered;
    }

    /** Pushes the current position, LSNs and a heartbeat to the writer (also done after each poll that moved). */
    public void publishFeedback() {
        feedback.consumerPosition(position);
        feedback.publish(RingHeader.epoch(region), System.currentTimeMillis() * 1000L);
    }

    /** Where the applier records applied and durable LSNs; they travel with the next feedback. */
    public FeedbackPublisher feedback() {
        return feedback;
    }

    public long position() {
        return position;
    }

    /** Last position the writer announced; {@code producerPosition() - position()} is the backlog in bytes. */
    public long producerPosition() {
        return RingHeader.producerPosition(region);
    }

    public int capacity() {
        return capacity;
    }

    public int epoch() {
        return RingHeader.epoch(region);
    }

    /** Owner side: refuse every frame not tagged with {@code epoch} from now on. */
    public void epoch(int epoch) {
        RingHeader.epoch(region, epoch);
        publishFeedback();
    }

    public long framesRead() {
        return framesRead;
    }

    /** Polls that stopped at a frame whose sequence matched but whose CRC or length did not (still arriving, or torn). */
    public long incompleteReads() {
        return incompleteReads;
    }

    /** Complete frames refused because they carried another epoch than the ring's. */
    public long refusedEpochFrames() {
        return refusedEpochFrames;
    }

    public String uri() {
        return end.uri();
    }

    private boolean crcMatches(int offset, int frameLength) {
        int checksumOffset = offset + frameLength - CRC_FROM_END;
        crc.reset();
        crcView.clear().position(offset).limit(checksumOffset);
        crc.update(crcView);
        return (int) crc.getValue() == region.getInt(checksumOffset);
    }
}
