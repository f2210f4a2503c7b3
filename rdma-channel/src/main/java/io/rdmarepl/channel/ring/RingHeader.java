package io.rdmarepl.channel.ring;

import static io.rdmarepl.channel.ring.RingDescriptor.CAPACITY_OFFSET;
import static io.rdmarepl.channel.ring.RingDescriptor.EPOCH_OFFSET;
import static io.rdmarepl.channel.ring.RingDescriptor.LAYOUT_VERSION;
import static io.rdmarepl.channel.ring.RingDescriptor.LAYOUT_VERSION_OFFSET;
import static io.rdmarepl.channel.ring.RingDescriptor.MAGIC;
import static io.rdmarepl.channel.ring.RingDescriptor.MAGIC_OFFSET;
import static io.rdmarepl.channel.ring.RingDescriptor.PRODUCER_POSITION_OFFSET;
import static io.rdmarepl.channel.ring.RingDescriptor.RING_ID_OFFSET;

import java.nio.ByteBuffer;

/** Reads and writes the header line of a ring region ({@link RingDescriptor}). */
public final class RingHeader {
    private RingHeader() {
    }

    /** Owner side: lays out a fresh header; the magic goes last so a reader of the magic sees the rest. */
    public static void initialise(ByteBuffer region, int capacity, int epoch, long ringId) {
        RingDescriptor.checkCapacity(capacity);
        ByteBuffer le = Ordered.littleEndian(region);
        if (le.capacity() < RingDescriptor.regionLength(capacity)) {
            throw new IllegalArgumentException("ring region of " + le.capacity()
                    + " bytes is too small for capacity " + capacity);
        }
        Ordered.putLongRelease(le, MAGIC_OFFSET, 0L); // a re-initialised header is invalid until complete
        le.putInt(LAYOUT_VERSION_OFFSET, LAYOUT_VERSION);
        le.putInt(CAPACITY_OFFSET, capacity);
        le.putInt(EPOCH_OFFSET, epoch);
        le.putLong(RING_ID_OFFSET, ringId);
        le.putLong(PRODUCER_POSITION_OFFSET, 0L);
        Ordered.putLongRelease(le, MAGIC_OFFSET, MAGIC);
    }

    /**
     * Checks that {@code region} holds a ring this code understands, wholly mapped, and returns its capacity.
     *
     * @param where names the region in error messages (a path or URI)
     */
    public static int verify(ByteBuffer region, String where) {
        int capacity = verifyHeader(region, where);
        if (region.capacity() < RingDescriptor.regionLength(capacity)) {
            throw new IllegalStateException("ring " + where + " declares capacity " + capacity
                    + " but only " + region.capacity() + " bytes are mapped");
        }
        return capacity;
    }

    /** Checks magic, layout version and capacity of a header line and returns the capacity. */
    public static int verifyHeader(ByteBuffer header, String where) {
        ByteBuffer le = Ordered.littleEndian(header);
        if (le.capacity() < RingDescriptor.DATA_OFFSET) {
            throw new IllegalStateException("not an rdmarepl ring: " + where + " holds only " + le.capacity() + " bytes");
        }
        long magic = Ordered.getLongAcquire(le, MAGIC_OFFSET);
        if (magic != MAGIC) {
            throw new IllegalStateException("not an rdmarepl ring (or not initialised yet): " + where
                    + " has magic 0x" + Long.toHexString(magic) + ", expected 0x" + Long.toHexString(MAGIC));
        }
        int version = le.getInt(LAYOUT_VERSION_OFFSET);
        if (version != LAYOUT_VERSION) {
            throw new IllegalStateException("ring " + where + " has layout version " + version
                    + ", this build reads version " + LAYOUT_VERSION);
        }
        int capacity = le.getInt(CAPACITY_OFFSET);
        try {
            RingDescriptor.checkCapacity(capacity);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("ring " + where + " is corrupt: " + e.getMessage(), e);
        }
        return capacity;
    }

    public static int capacity(ByteBuffer region) {
        return Ordered.littleEndian(region).getInt(CAPACITY_OFFSET);
    }

    public static int epoch(ByteBuffer region) {
        return Ordered.getIntAcquire(region, EPOCH_OFFSET);
    }

    public static long ringId(ByteBuffer region) {
        return Ordered.littleEndian(region).getLong(RING_ID_OFFSET);
    }

    /** Owner side: frames tagged with any other epoch are refused from now on. */
    public static void epoch(ByteBuffer region, int epoch) {
        Ordered.putIntRelease(region, EPOCH_OFFSET, epoch);
    }

    public static long producerPosition(ByteBuffer region) {
        return Ordered.getLongAcquire(region, PRODUCER_POSITION_OFFSET);
    }

    /**
     * Writer side: sets the producer position in the writer's own image, e.g. to the resume position
     * a remote transport learned at connect time ({@link WriterEnd#resumePosition()}).
     */
    public static void producerPosition(ByteBuffer region, long position) {
        Ordered.putLongRelease(region, PRODUCER_POSITION_OFFSET, position);
    }
}
