package io.rdmarepl.channel.ring;

import static io.rdmarepl.channel.ring.FrameDescriptor.FLAGS_OFFSET;
import static io.rdmarepl.channel.ring.FrameDescriptor.HEADER_LENGTH;
import static io.rdmarepl.channel.ring.FrameDescriptor.LENGTH_OFFSET;
import static io.rdmarepl.channel.ring.FrameDescriptor.MIN_FRAME_LENGTH;
import static io.rdmarepl.channel.ring.FrameDescriptor.PADDING_TYPE;
import static io.rdmarepl.channel.ring.FrameDescriptor.TYPE_OFFSET;

import java.nio.ByteBuffer;

/**
 * Single reader of a ring. Delivers a frame only when its sequence is the next expected position,
 * its CRC32C matches and its epoch is the ring's ({@link FrameDescriptor}); anything else is a
 * frame not yet (fully) arrived, or a refused one, and is looked at again on the next poll.
 * Reports its consumer position through a {@link FeedbackPublisher} after every poll that moved or
 * changed what the feedback says.
 *
 * <p>A reader starts at position 0: it belongs to a ring its transport has just created.
 * Not thread-safe: one thread polls. Allocation-free after construction.
 */
public final class RingReader {
    private final ByteBuffer region;
    private final ByteBuffer handlerView;
    private final FrameValidator validator;
    private final FeedbackPublisher feedback;
    private final String uri;
    private final int capacity;
    private final ByteBuffer sleepImage;
    private final ReaderEnd end;

    private final Doorbell doorbell;

    private long position;
    private long producerSeenByLastPoll;
    private long polls;
    private long pollsAtLastSkippedSleep = -1;
    private long sleepWord;
    private long framesReadAtLastSleep;
    private boolean lastSleepRung;
    private long framesRead;
    private long incompleteReads;
    private long refusedEpochFrames;
    private long lastRefusedPosition = -1;
    /** The heartbeat time every report carries while held; 0 = not held. */
    private long heartbeatHeldUs;
    private boolean pollEnded;

    public RingReader(ReaderEnd end) {
        this.uri = end.uri();
        this.region = Ordered.littleEndian(end.ringRegion());
        this.handlerView = region.asReadOnlyBuffer().order(region.order());
        this.capacity = RingHeader.verify(region, uri);
        this.validator = new FrameValidator(region, capacity);
        this.feedback = new FeedbackPublisher(end);
        this.doorbell = end.doorbell();
        this.end = end;
        this.sleepImage = Ordered.littleEndian(end.feedbackImage());
        // a later reader of the same region continues the words, so a writer never takes a new sleep for an old one
        this.sleepWord = (sleepImage.getLong(FeedbackDescriptor.DOORBELL_SLEEP_OFFSET) + 1) & ~1L;
        publishFeedback();
    }

    /**
     * Delivers up to {@code frameLimit} frames to {@code handler}, fewer when the handler calls {@link #endPoll}.
     *
     * @return frames delivered (padding excluded); 0 means nothing was ready
     */
    public int poll(FrameHandler handler, int frameLimit) {
        final int epoch = RingHeader.epoch(region);
        final long start = position;
        producerSeenByLastPoll = RingHeader.producerPosition(region);
        polls++;
        int delivered = 0;
        pollEnded = false;
        while (delivered < frameLimit && !pollEnded) {
            int tail = validator.tail(position);
            if (tail < MIN_FRAME_LENGTH) {
                position += tail;
                continue;
            }
            int frameLength = validator.check(position, epoch);
            if (frameLength <= 0) {
                countMiss(frameLength);
                break;
            }
            int offset = validator.offset(position);
            int type = region.getShort(offset + TYPE_OFFSET);
            if (type == PADDING_TYPE) {
                position += tail;
                continue;
            }
            handler.onFrame(type, region.getShort(offset + FLAGS_OFFSET), handlerView, offset + HEADER_LENGTH,
                    region.getInt(offset + LENGTH_OFFSET) - HEADER_LENGTH);
            position += frameLength;
            framesRead++;
            delivered++;
        }
        if (position != start || feedback.isDirty()) {
            publishFeedback();
        }
        return delivered;
    }

    /**
     * Ends the {@link #poll} in progress after the frame being handled: the handler has all it can take for now (a
     * reader that keeps every frame it reads, as the applier keeps a group's records, would otherwise take in up to a
     * whole ring in one poll). Only from the polling thread, inside the handler.
     */
    public void endPoll() {
        pollEnded = true;
    }

    /**
     * Ends a {@link #sleepUntilWritten} in progress, or the next one, at once, for news from this process (a command
     * for the reading thread); over verbs only the next one ({@link Doorbell#wakeUp}). Any thread; nothing without a
     * doorbell.
     */
    public void wakeUp() {
        if (doorbell != null) {
            doorbell.wakeUp();
        }
    }

    /** True when the transport gives this ring a doorbell, so {@link #sleepUntilWritten} can block instead of park. */
    public boolean hasDoorbell() {
        return doorbell != null;
    }

    /**
     * Sleeps until the writer publishes frames this reader's last {@link #poll} did not see, or {@code timeoutNs}
     * passed. Needs {@link #hasDoorbell()}. The reader says it sleeps (an odd sleep word, then a full fence, then
     * {@link ReaderEnd#announceSleep}), looks at the producer position once more, and only then blocks on the
     * doorbell; the writer stores the producer position, fences, then reads the sleep word ({@link RingWriter}).
     * In shared memory a publish is never missed for longer than the timeout. Over verbs the announcement and the
     * publish cross on the wire, so a publish made in that window may go unrung: the timeout bounds it, as it bounds
     * a sleep whose ring was lost on the way. The word is new once the last one was rung or frames were read since;
     * after a sleep nothing ended, the writer has not rung the word, and it stays.
     *
     * <p>A reader that stopped polling (its consumer is paused) would see the same unread publish on every
     * call: it sleeps out the timeout the second time, rather than spin.
     */
    public void sleepUntilWritten(long timeoutNs) {
        if (doorbell == null) {
            throw new IllegalStateException("ring " + uri + " has no doorbell: park instead");
        }
        // a word nothing rang and no frame followed is still un-rung for the writer: keeping it spares the
        // transport an announcement per idle timeout (over verbs, a write into the primary's host)
        boolean newWord = lastSleepRung || framesRead != framesReadAtLastSleep || sleepWord == 0;
        if (newWord) {
            sleepWord += 2;
        }
        framesReadAtLastSleep = framesRead;
        Ordered.putLongThenFence(sleepImage, FeedbackDescriptor.DOORBELL_SLEEP_OFFSET, sleepWord | 1);
        end.announceSleep(newWord);
        lastSleepRung = false;
        try {
            if (RingHeader.producerPosition(region) != producerSeenByLastPoll && polls != pollsAtLastSkippedSleep) {
                pollsAtLastSkippedSleep = polls;
                return;
            }
            lastSleepRung = awaitDoorbell(timeoutNs);
        } finally {
            Ordered.putLongRelease(sleepImage, FeedbackDescriptor.DOORBELL_SLEEP_OFFSET, sleepWord);
        }
    }

    /** A doorbell that fails (its socket closed under it) costs a park, never the reading thread. */
    private boolean awaitDoorbell(long timeoutNs) {
        try {
            return doorbell.await(timeoutNs);
        } catch (RuntimeException e) {
            java.util.concurrent.locks.LockSupport.parkNanos(timeoutNs);
            return true; // what rang, if anything, is unknown: the next sleep takes a new word
        }
    }

    /**
     * Whether the writer sleeps until this reader's next feedback ({@link RingWriter#sleepUntilFeedback}: its sleep
     * word is odd): a shipper whose primary's commits wait for this standby's acknowledgement. Nothing more will come
     * until this reader reports, so whatever it holds is worth applying now. Only a writer with a doorbell sleeps so
     * (over shm); a writer without one, which polls the feedback instead (over verbs), holds the word odd while it
     * does ({@link RingWriter#announceFeedbackAwaited}).
     */
    public boolean writerAwaitsFeedback() {
        return (Ordered.getLongAcquire(region, RingDescriptor.WRITER_DOORBELL_SLEEP_OFFSET) & 1) != 0;
    }

    /**
     * Pushes the current position, LSNs and a heartbeat to the writer (also done by polls that moved). While the
     * heartbeat is held ({@link #holdHeartbeat}) the report carries the held time, so the writer sees its reader
     * consume but no longer hears it say it is there.
     */
    public void publishFeedback() {
        feedback.consumerPosition(position);
        feedback.publish(RingHeader.epoch(region), heartbeatHeldUs != 0 ? heartbeatHeldUs : System.currentTimeMillis() * 1000L);
    }

    /**
     * {@code true}: from the next report on, the feedback's heartbeat time stays at the last one sent, while positions
     * and LSNs go on moving; {@code false}: it moves again. The writer takes a moving heartbeat for its reader's
     * word that it is still there (the shipper's lease); a reader that must stop giving that word holds it.
     */
    public void holdHeartbeat(boolean hold) {
        heartbeatHeldUs = hold ? Math.max(1, feedback.heartbeatTimeUs()) : 0;
    }

    /** Whether {@link #holdHeartbeat} holds the heartbeat now. */
    public boolean heartbeatHeld() {
        return heartbeatHeldUs != 0;
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

    /** Where a writer connecting now must start ({@link RingScanner}). */
    public long resumePosition() {
        return validator.resumePosition(position, RingHeader.epoch(region));
    }

    public int capacity() {
        return capacity;
    }

    public int epoch() {
        return RingHeader.epoch(region);
    }

    /** Owner side: refuse every frame not tagged with {@code epoch} from now on, and tell the writer. */
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

    /** Complete frames refused because they carried another epoch than the ring's (each position counted once). */
    public long refusedEpochFrames() {
        return refusedEpochFrames;
    }

    public String uri() {
        return uri;
    }

    private void countMiss(int result) {
        if (result == FrameValidator.INCOMPLETE) {
            incompleteReads++;
        } else if (result == FrameValidator.OTHER_EPOCH && lastRefusedPosition != position) {
            lastRefusedPosition = position;
            refusedEpochFrames++;
        }
    }
}
