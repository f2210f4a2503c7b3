package io.rdmarepl.channel.ring;

import static io.rdmarepl.channel.ring.FeedbackDescriptor.APPLIED_LSN_OFFSET;
import static io.rdmarepl.channel.ring.FeedbackDescriptor.CONSUMER_POSITION_OFFSET;
import static io.rdmarepl.channel.ring.FeedbackDescriptor.CRC_OFFSET;
import static io.rdmarepl.channel.ring.FeedbackDescriptor.DURABLE_LSN_OFFSET;
import static io.rdmarepl.channel.ring.FeedbackDescriptor.EPOCH_OFFSET;
import static io.rdmarepl.channel.ring.FeedbackDescriptor.HEARTBEAT_TIME_US_OFFSET;
import static io.rdmarepl.channel.ring.FeedbackDescriptor.UPDATE_COUNT_OFFSET;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The reader side's report to the writer ({@link FeedbackDescriptor}): how far it consumed, which
 * LSNs the replica applied and made durable, and that it is alive. Single-threaded: call it from
 * the thread that polls the ring.
 */
public final class FeedbackPublisher {
    private final ReaderEnd end;
    private final ByteBuffer image;
    private final ByteBuffer crcView;
    private final ByteBuffer ringRegion;
    private long lastRungWriterSleepWord;
    private final CRC32C crc = new CRC32C();
    private long consumerPosition;
    private long appliedLsn;
    private long durableLsn;
    private long heartbeatTimeUs;
    private long updateCount = System.nanoTime() & Long.MAX_VALUE;
    private boolean dirty;

    public FeedbackPublisher(ReaderEnd end) {
        this.end = end;
        this.image = Ordered.littleEndian(end.feedbackImage());
        this.crcView = image.duplicate();
        this.ringRegion = Ordered.littleEndian(end.ringRegion());
    }

    /** Positions and LSNs only move forward: a smaller value is ignored. */
    public void consumerPosition(long position) {
        consumerPosition = Math.max(consumerPosition, position);
    }

    public void appliedLsn(long lsn) {
        if (Long.compareUnsigned(lsn, appliedLsn) > 0) {
            appliedLsn = lsn;
            dirty = true;
        }
    }

    public void durableLsn(long lsn) {
        if (Long.compareUnsigned(lsn, durableLsn) > 0) {
            durableLsn = lsn;
            dirty = true;
        }
    }

    /** True when LSNs changed since the last report. */
    public boolean isDirty() {
        return dirty;
    }

    public long appliedLsn() {
        return appliedLsn;
    }

    public long durableLsn() {
        return durableLsn;
    }

    public long consumerPosition() {
        return consumerPosition;
    }

    /** The heartbeat time of the last report, 0 before the first. */
    public long heartbeatTimeUs() {
        return heartbeatTimeUs;
    }

    /** Writes the report into the image and pushes it to the writer's region. */
    public void publish(int epoch, long heartbeatTimeUs) {
        updateCount++;
        dirty = false;
        this.heartbeatTimeUs = heartbeatTimeUs;
        image.putLong(CONSUMER_POSITION_OFFSET, consumerPosition);
        image.putLong(APPLIED_LSN_OFFSET, appliedLsn);
        image.putLong(DURABLE_LSN_OFFSET, durableLsn);
        image.putLong(HEARTBEAT_TIME_US_OFFSET, heartbeatTimeUs);
        image.putLong(UPDATE_COUNT_OFFSET, updateCount);
        image.putInt(EPOCH_OFFSET, epoch);
        crc.reset();
        crcView.clear().position(0).limit(CRC_OFFSET);
        crc.update(crcView);
        Ordered.putIntRelease(image, CRC_OFFSET, (int) crc.getValue());
        end.pushFeedback();
        wakeWriterIfAsleep();
    }

    /** The reader's half of {@link RingWriter#sleepUntilFeedback}: the report is stored, then the sleep word read. */
    private void wakeWriterIfAsleep() {
        java.lang.invoke.VarHandle.fullFence();
        long sleepWord = Ordered.getLongAcquire(ringRegion, RingDescriptor.WRITER_DOORBELL_SLEEP_OFFSET);
        if ((sleepWord & 1) != 0 && sleepWord != lastRungWriterSleepWord) {
            lastRungWriterSleepWord = sleepWord;
            end.ringDoorbell();
        }
    }
}
