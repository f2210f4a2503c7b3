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
        this.length = length;
        this.role = role;
        this.commitLsn = commitLsn;
        this.commitTimeUs = commitTimeUs;
    }

    ByteBuffer bytes() {
        return bytes;
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
