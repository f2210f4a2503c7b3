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
import static io.rdmarepl.channel.ring.RingDescriptor.PRODUCER_POSITION_OFFSET;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;

/**
 * Single writer of frames into a ring ({@link FrameDescriptor}). Frames are claimed, filled in the
 * local image, committed, and then {@link #publish() published} in batches: one push per contiguous
 * range, then the producer position. Never blocks; a full ring is reported as
 * {@link #BACK_PRESSURED}, and the caller decides whether to wait.
 *
 * <p>A writer resumes a ring where the complete frames of the ring's epoch end
 * ({@link RingScanner}): frames a crashed predecessor committed but never announced are kept,
 * frames of an older epoch are overwritten. Once the reader moves to a newer epoch, every claim
 * answers {@link #FENCED}.
 *
 * <p>Not thread-safe: one thread claims, commits and publishes. Allocation-free after construction.
 */
public final class RingWriter {
    /** {@link #tryClaim} result: the reader has not freed enough room yet. */
    public static final int BACK_PRESSURED = -1;
    /** {@link #tryClaim} result: the reader accepts a newer epoch; this writer is fenced for good. */
    public static final int FENCED = -2;

    private static final long FEEDBACK_WAIT_NS = TimeUnit.SECONDS.toNanos(2);
    private static final long HEALTH_CHECK_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(100);

    private final WriterEnd end;
    private final ByteBuffer image;
    private final ByteBuffer crcView;
    private final ByteBuffer sequenceScratch = ByteBuffer.allocateDirect(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private final CRC32C crc = new CRC32C();
    private final FeedbackSnapshot feedback;
    private final ByteBuffer feedbackRegion;
    private final int capacity;
    private final int mask;
    private final int maxPayloadLength;
    private final int epoch;

    private long position;
    private long publishedPosition;
    private long limitPosition;
    private int claimedOffset = -1;
    private int claimedFrameLength;
    private int claimedPayloadLength;
    private short claimedType;
    private boolean fenced;
    private long nextHealthCheckNs;

    private final Doorbell doorbell;
    private long feedbackSleepWord;
    private long lastRungSleepWord;
    private boolean feedbackAwaitedAnnounced;
    private long doorbellRings;
    private long backPressureEvents;
    private long framesCommitted;

    public RingWriter(WriterEnd end) {
        this(end, FEEDBACK_WAIT_NS);
    }

    /**
     * @param feedbackWaitNs how long to wait for the reader's first valid feedback report
     * @throws IllegalStateException naming the channel when the reader reports nothing in time
     */
    public RingWriter(WriterEnd end, long feedbackWaitNs) {
        this.end = end;
        this.image = Ordered.littleEndian(end.ringImage());
        this.crcView = image.duplicate();
        this.capacity = RingHeader.verify(image, end.uri());
        this.mask = capacity - 1;
        this.maxPayloadLength = FrameDescriptor.maxPayloadLength(capacity);
        this.epoch = RingHeader.epoch(image);
        this.feedbackRegion = Ordered.littleEndian(end.feedbackRegion());
        this.feedback = new FeedbackSnapshot(feedbackRegion);
        this.doorbell = end.doorbell();
        // a later writer of the same ring continues the words, so a reader never takes a new sleep for an old one
        long leftWord = image.getLong(RingDescriptor.WRITER_DOORBELL_SLEEP_OFFSET);
        this.feedbackSleepWord = (leftWord + 1) & ~1L;
        boolean imageIsTheRing = end.resumePosition() < 0;
        if ((leftWord & 1) != 0 || !imageIsTheRing) {
            // a writer that died awaiting feedback (asleep, or polling) left its word odd: the reader would take every
            // writer since for one that awaits its feedback (RingReader#writerAwaitsFeedback). An image that is not
            // the ring itself (verbs) starts blank and cannot tell, so it always stores its word
            Ordered.putLongRelease(image, RingDescriptor.WRITER_DOORBELL_SLEEP_OFFSET, feedbackSleepWord);
            end.push(RingDescriptor.WRITER_DOORBELL_SLEEP_OFFSET, Long.BYTES);
            end.flush();
        }
        awaitFeedback(feedbackWaitNs);
        long resume = end.resumePosition();
        this.position = resume >= 0 ? resume
                : new FrameValidator(image, capacity).resumePosition(feedback.consumerPosition(), epoch);
        this.publishedPosition = position;
        this.limitPosition = feedback.consumerPosition() + capacity;
        this.fenced = feedback.epoch() > epoch;
    }

    /**
     * Claims room for a frame of {@code payloadLength} bytes.
     *
     * @param type application frame type, 1..32767
     * @return the offset in {@link #buffer()} where the payload goes, or {@link #BACK_PRESSURED} or {@link #FENCED}
     * @throws IllegalArgumentException when the payload can never fit or the type is reserved
     * @throws IllegalStateException when a previous claim is neither committed nor aborted, or the
     *     transport reports the far end gone
     */
    public int tryClaim(int type, int payloadLength) {
        if (claimedOffset >= 0) {
            throw new IllegalStateException("frame at position " + position + " is claimed but not committed or aborted");
        }
        if (type <= PADDING_TYPE || type > Short.MAX_VALUE) {
            throw new IllegalArgumentException("frame type must be 1..32767: " + type);
        }
        if (payloadLength < 0 || payloadLength > maxPayloadLength) {
            throw new IllegalArgumentException("frame payload must be 0.." + maxPayloadLength + " bytes (ring capacity "
                    + capacity + "): " + payloadLength + " at " + end.uri());
        }
        if (fenced || isFenced()) {
            return FENCED;
        }
        int frameLength = FrameDescriptor.alignedFrameLength(payloadLength);
        int index = (int) position & mask;
        int tail = capacity - index;
        int required = tail < frameLength ? tail + frameLength : frameLength;
        if (position + required > limitPosition && !refreshLimit(position + required)) {
            if (fenced) {
                return FENCED;
            }
            backPressureEvents++;
            return BACK_PRESSURED;
        }
        if (tail < frameLength) {
            if (tail >= MIN_FRAME_LENGTH) {
                writeFrame(DATA_OFFSET + index, HEADER_LENGTH, PADDING_TYPE, 0, MIN_FRAME_LENGTH);
            }
            position += tail;
            index = 0;
        }
        claimedOffset = DATA_OFFSET + index;
        claimedFrameLength = frameLength;
        claimedPayloadLength = payloadLength;
        claimedType = (short) type;
        return claimedOffset + HEADER_LENGTH;
    }

    /** Completes the claimed frame: header, epoch, CRC, and the sequence last. */
    public void commit() {
        commit(0);
    }

    public void commit(int flags) {
        int offset = requireClaim();
        writeFrame(offset, HEADER_LENGTH + claimedPayloadLength, claimedType, flags, claimedFrameLength);
        position += claimedFrameLength;
        int tail = capacity - ((int) position & mask);
        if (tail < MIN_FRAME_LENGTH) {
            position += tail; // no frame fits there; the reader skips it the same way
        }
        framesCommitted++;
        claimedOffset = -1;
    }

    /** Gives up the claimed frame; nothing of it becomes valid. */
    public void abort() {
        requireClaim();
        claimedOffset = -1;
    }

    /**
     * Claims, copies and commits in one go.
     *
     * @return true when written, false when back-pressured or fenced (nothing written)
     */
    public boolean tryWrite(int type, ByteBuffer source, int sourceOffset, int length) {
        int payloadOffset = tryClaim(type, length);
        if (payloadOffset < 0) {
            return false;
        }
        image.put(payloadOffset, source, sourceOffset, length);
        commit();
        return true;
    }

    /**
     * Pushes every committed frame not yet published (one range, or two when the lap wrapped), then
     * the producer position.
     *
     * @return bytes pushed, 0 when there was nothing new
     */
    public int publish() {
        long from = publishedPosition;
        long to = position;
        if (to == from) {
            return 0;
        }
        long bytes = to - from;
        if (bytes >= capacity) {
            end.push(DATA_OFFSET, capacity); // only in shared memory, where the reader reads unpublished frames
        } else {
            int fromIndex = (int) from & mask;
            int firstLength = (int) Math.min(bytes, capacity - fromIndex);
            end.push(DATA_OFFSET + fromIndex, firstLength);
            if (firstLength < bytes) {
                end.push(DATA_OFFSET, (int) (bytes - firstLength));
            }
        }
        RingHeader.producerPosition(image, to);
        end.push(PRODUCER_POSITION_OFFSET, Long.BYTES);
        publishedPosition = to;
        wakeReaderIfAsleep();
        return (int) Math.min(bytes, Integer.MAX_VALUE);
    }

    /**
     * The other half of the reader's {@link RingReader#sleepUntilWritten}: the producer position is stored
     * before the sleep word is read, and the reader stores the sleep word before it reads the producer
     * position, each with a full fence between, so at least one of the two sees the other's store.
     */
    private void wakeReaderIfAsleep() {
        java.lang.invoke.VarHandle.fullFence();
        long sleepWord = Ordered.getLongAcquire(feedbackRegion, FeedbackDescriptor.DOORBELL_SLEEP_OFFSET);
        if ((sleepWord & 1) != 0 && sleepWord != lastRungSleepWord) {
            lastRungSleepWord = sleepWord;
            doorbellRings++;
            end.ringDoorbell();
        }
    }

    /** True when the transport gives this writer a doorbell, so {@link #sleepUntilFeedback} can block. */
    public boolean hasDoorbell() {
        return doorbell != null;
    }

    /**
     * Sleeps until the reader writes feedback this writer's last {@link FeedbackSnapshot#refresh} did not see, or
     * {@code timeoutNs} passed, or {@link #wakeUp}. Needs {@link #hasDoorbell()}. The same protocol as the reader's
     * {@link RingReader#sleepUntilWritten}, the other way: the sleep word is stored and fenced before the feedback's
     * update count is looked at once more; the reader stores its report and fences before it reads the word.
     */
    public void sleepUntilFeedback(long timeoutNs) {
        if (doorbell == null) {
            throw new IllegalStateException("ring " + end.uri() + " has no doorbell for its writer: park instead");
        }
        feedbackSleepWord += 2;
        Ordered.putLongThenFence(image, RingDescriptor.WRITER_DOORBELL_SLEEP_OFFSET, feedbackSleepWord | 1);
        end.push(RingDescriptor.WRITER_DOORBELL_SLEEP_OFFSET, Long.BYTES);
        try {
            if (!feedback.changedSinceRefresh()) {
                doorbell.await(timeoutNs);
            }
        } finally {
            Ordered.putLongRelease(image, RingDescriptor.WRITER_DOORBELL_SLEEP_OFFSET, feedbackSleepWord);
            end.push(RingDescriptor.WRITER_DOORBELL_SLEEP_OFFSET, Long.BYTES);
        }
    }

    /**
     * For a writer without a doorbell, which polls for the reader's feedback where one with a doorbell sleeps
     * ({@link #sleepUntilFeedback}): says through the same word whether it awaits that feedback, odd from a call with
     * {@code true} until one with {@code false} ({@link RingReader#writerAwaitsFeedback}), so that the reader applies
     * what it holds rather than lingering for more. Writes and sends the word only when the answer changes.
     */
    public void announceFeedbackAwaited(boolean awaited) {
        if (doorbell != null) {
            throw new IllegalStateException("ring " + end.uri() + " has a doorbell for its writer: sleepUntilFeedback says this");
        }
        if (awaited == feedbackAwaitedAnnounced) {
            return;
        }
        feedbackAwaitedAnnounced = awaited;
        if (awaited) {
            feedbackSleepWord += 2;
        }
        Ordered.putLongRelease(image, RingDescriptor.WRITER_DOORBELL_SLEEP_OFFSET, awaited ? feedbackSleepWord | 1 : feedbackSleepWord);
        end.push(RingDescriptor.WRITER_DOORBELL_SLEEP_OFFSET, Long.BYTES);
        end.flush();
    }

    /** Whether {@link #announceFeedbackAwaited} holds the word odd now. */
    public boolean announcesFeedbackAwaited() {
        return feedbackAwaitedAnnounced;
    }

    /** Ends a {@link #sleepUntilFeedback} in progress, or the next one, at once. Any thread. */
    public void wakeUp() {
        if (doorbell != null) {
            doorbell.wakeUp();
        }
    }

    /** Times this writer woke a sleeping reader through the transport's doorbell. */
    public long doorbellRings() {
        return doorbellRings;
    }

    /** The image frames are written into; payload offsets from {@link #tryClaim} index it. */
    public ByteBuffer buffer() {
        return image;
    }

    public long position() {
        return position;
    }

    public int capacity() {
        return capacity;
    }

    public int maxPayloadLength() {
        return maxPayloadLength;
    }

    public int epoch() {
        return epoch;
    }

    public boolean fenced() {
        return fenced;
    }

    public FeedbackSnapshot feedback() {
        return feedback;
    }

    public long backPressureEvents() {
        return backPressureEvents;
    }

    public long framesCommitted() {
        return framesCommitted;
    }

    /** The ring header (shared memory) or the reader's feedback says a newer epoch: sticky once seen. */
    private boolean isFenced() {
        if (RingHeader.epoch(image) > epoch
                || Ordered.getIntAcquire(feedbackRegion, FeedbackDescriptor.EPOCH_OFFSET) > epoch && feedback.refresh()
                && feedback.epoch() > epoch) {
            fenced = true;
        }
        return fenced;
    }

    /** Re-reads the reader's feedback; true when the ring now has room up to {@code needed}. */
    private boolean refreshLimit(long needed) {
        feedback.refresh();
        if (feedback.epoch() > epoch) {
            fenced = true;
            return false;
        }
        limitPosition = feedback.consumerPosition() + capacity;
        if (needed <= limitPosition) {
            return true;
        }
        long nowNs = System.nanoTime();
        if (nowNs - nextHealthCheckNs >= 0) {
            nextHealthCheckNs = nowNs + HEALTH_CHECK_INTERVAL_NS;
            end.checkHealth();
        }
        return false;
    }

    private void awaitFeedback(long waitNs) {
        long deadlineNs = System.nanoTime() + waitNs;
        while (!feedback.refresh()) {
            if (System.nanoTime() - deadlineNs >= 0) {
                throw new IllegalStateException("no valid feedback from the reader of " + end.uri() + " within "
                        + TimeUnit.NANOSECONDS.toMillis(waitNs) + " ms: is the standby side running?");
            }
            Thread.onSpinWait();
        }
    }

    private void writeFrame(int offset, int length, short type, int flags, int frameLength) {
        int frameEnd = offset + frameLength;
        int crcOffset = frameEnd - CRC_FROM_END;
        for (int i = offset + length; i < frameEnd - FrameDescriptor.TRAILER_LENGTH; i++) {
            image.put(i, (byte) 0);
        }
        image.putInt(offset + LENGTH_OFFSET, length);
        image.putShort(offset + TYPE_OFFSET, type);
        image.putShort(offset + FLAGS_OFFSET, (short) flags);
        image.putInt(frameEnd - EPOCH_FROM_END, epoch);
        // the CRC covers the sequence, taken from a scratch copy: the sequence slot itself is written
        // once, last, with release semantics, so shared-memory readers see it only after everything else
        sequenceScratch.putLong(0, position);
        crc.reset();
        crcView.clear().position(offset).limit(offset + SEQUENCE_OFFSET);
        crc.update(crcView);
        crc.update(sequenceScratch.clear());
        crcView.clear().position(offset + HEADER_LENGTH).limit(crcOffset);
        crc.update(crcView);
        image.putInt(crcOffset, (int) crc.getValue());
        Ordered.putLongRelease(image, offset + SEQUENCE_OFFSET, position);
    }

    private int requireClaim() {
        if (claimedOffset < 0) {
            throw new IllegalStateException("no frame is claimed");
        }
        return claimedOffset;
    }
}
