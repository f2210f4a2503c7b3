package io.rdmarepl.channel.ring;

import static io.rdmarepl.channel.ring.FeedbackDescriptor.APPLIED_LSN_OFFSET;
import static io.rdmarepl.channel.ring.FeedbackDescriptor.CONSUMER_POSITION_OFFSET;
import static io.rdmarepl.channel.ring.FeedbackDescriptor.CRC_OFFSET;
import static io.rdmarepl.channel.ring.FeedbackDescriptor.DURABLE_LSN_OFFSET;
import static io.rdmarepl.channel.ring.FeedbackDescriptor.EPOCH_OFFSET;
import static io.rdmarepl.channel.ring.FeedbackDescriptor.HEARTBEAT_TIME_US_OFFSET;
import static io.rdmarepl.channel.ring.FeedbackDescriptor.REGION_LENGTH;
import static io.rdmarepl.channel.ring.FeedbackDescriptor.UPDATE_COUNT_OFFSET;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The writer side's latest good copy of the reader's feedback. The region may change under our
 * feet (a remote write in progress), so a report is copied out first and taken only when its CRC
 * matches; otherwise the previous one stands.
 */
public final class FeedbackSnapshot {
    private final ByteBuffer region;
    private final ByteBuffer copy = ByteBuffer.allocateDirect(REGION_LENGTH).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    private final ByteBuffer copyCrcView = copy.duplicate();
    private final CRC32C crc = new CRC32C();
    private long consumerPosition;
    private long appliedLsn;
    private long durableLsn;
    private long heartbeatTimeUs;
    private int epoch;
    private long tornReads;
    private long updateCountSeen;
    private int crcSeen;

    public FeedbackSnapshot(ByteBuffer feedbackRegion) {
        this.region = Ordered.littleEndian(feedbackRegion);
    }

    /** Whether the reader wrote a report (whole or still arriving) since the last {@link #refresh}. */
    boolean changedSinceRefresh() {
        // the CRC too: it is the reader's last store before its fence, so a report torn when last read (new count,
        // old CRC) that has been completed since counts as changed
        return Ordered.getLongAcquire(region, UPDATE_COUNT_OFFSET) != updateCountSeen
                || Ordered.getIntAcquire(region, CRC_OFFSET) != crcSeen;
    }

    /** @return true when a valid report was taken */
    public boolean refresh() {
        int storedCrc = Ordered.getIntAcquire(region, CRC_OFFSET);
        copy.put(0, region, 0, REGION_LENGTH);
        updateCountSeen = copy.getLong(UPDATE_COUNT_OFFSET);
        crcSeen = storedCrc;
        crc.reset();
        copyCrcView.clear().position(0).limit(CRC_OFFSET);
        crc.update(copyCrcView);
        if ((int) crc.getValue() != storedCrc || storedCrc != copy.getInt(CRC_OFFSET)) {
            if (copy.getLong(UPDATE_COUNT_OFFSET) != 0) {
                tornReads++;
            }
            return false;
        }
        // every valid report is taken (values only grow): a restarted reader may reuse update counts
        consumerPosition = Math.max(consumerPosition, copy.getLong(CONSUMER_POSITION_OFFSET));
        appliedLsn = unsignedMax(appliedLsn, copy.getLong(APPLIED_LSN_OFFSET));
        durableLsn = unsignedMax(durableLsn, copy.getLong(DURABLE_LSN_OFFSET));
        heartbeatTimeUs = copy.getLong(HEARTBEAT_TIME_US_OFFSET);
        epoch = copy.getInt(EPOCH_OFFSET);
        return true;
    }

    private static long unsignedMax(long a, long b) {
        return Long.compareUnsigned(a, b) >= 0 ? a : b;
    }

    public long consumerPosition() {
        return consumerPosition;
    }

    public long appliedLsn() {
        return appliedLsn;
    }

    public long durableLsn() {
        return durableLsn;
    }

    public long heartbeatTimeUs() {
        return heartbeatTimeUs;
    }

    /** Epoch the reader accepts; larger than the writer's means the writer has been fenced. */
    public int epoch() {
        return epoch;
    }

    /** Reports seen mid-write and skipped. */
    public long tornReads() {
        return tornReads;
    }
}
