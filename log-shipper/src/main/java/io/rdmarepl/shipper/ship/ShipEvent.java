package io.rdmarepl.shipper.ship;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One slot of the Disruptor: one encoded change record on its way to every standby. Slots are
 * preallocated and their buffers reused; a buffer grows only when a larger record arrives.
 */
public final class ShipEvent {
    /** A record that opens a transaction ({@code Begin}). */
    public static final int BEGIN = 1;
    /** A record inside a transaction (relation, row, truncate). */
    public static final int BODY = 2;
    /** The record that closes a transaction ({@code Commit}). */
    public static final int COMMIT = 3;

    private ByteBuffer bytes = ByteBuffer.allocateDirect(1024).order(ByteOrder.LITTLE_ENDIAN);
    /** A record this slot refers to instead of holding it ({@link #borrow}), or null. */
    private ByteBuffer borrowed;
    private int borrowedOffset;
    private int length;
    private int role;
    private long commitLsn;
    private long commitTimeUs;

    /** Copies {@code length} bytes of {@code source} from {@code offset} into this slot. */
    void set(int role, ByteBuffer source, int offset, int length, long commitLsn, long commitTimeUs) {
        if (bytes.capacity() < length) {
            bytes = ByteBuffer.allocateDirect(Math.max(length, bytes.capacity() * 2)).order(ByteOrder.LITTLE_ENDIAN);
        }
        bytes.put(0, source, offset, length);
        this.borrowed = null;
        this.length = length;
        this.role = role;
        this.commitLsn = commitLsn;
        this.commitTimeUs = commitTimeUs;
    }

    /**
     * Refers to {@code length} bytes of {@code source} from {@code offset} without copying them: large records (an
     * initial copy's CopyChunk records, up to a MiB) would otherwise grow every slot they pass through for good. The
     * publisher keeps the bytes unchanged until the handlers are past this slot ({@link ShipPipeline#consumed}).
     */
    void borrow(int role, ByteBuffer source, int offset, int length, long commitLsn, long commitTimeUs) {
        this.borrowed = source;
        this.borrowedOffset = offset;
        this.length = length;
        this.role = role;
        this.commitLsn = commitLsn;
        this.commitTimeUs = commitTimeUs;
    }

    /** The buffer the record lies in, from {@link #offset()}. */
    ByteBuffer bytes() {
        return borrowed != null ? borrowed : bytes;
    }

    int offset() {
        return borrowed != null ? borrowedOffset : 0;
    }

    int length() {
        return length;
    }

    int role() {
        return role;
    }

    long commitLsn() {
        return commitLsn;
    }

    long commitTimeUs() {
        return commitTimeUs;
    }
}
