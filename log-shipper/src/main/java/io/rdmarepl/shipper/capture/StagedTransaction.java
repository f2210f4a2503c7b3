package io.rdmarepl.shipper.capture;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.function.IntUnaryOperator;

/**
 * The encoded records of the transaction being captured, kept until its END event gives the
 * commit LSN the Begin record must carry (pgoutput sends a transaction only once it committed, so
 * waiting for its end costs no more than its own size). Buffers grow, never shrink.
 */
final class StagedTransaction {
    private ByteBuffer bytes = ByteBuffer.allocateDirect(64 * 1024).order(ByteOrder.LITTLE_ENDIAN);
    private int[] offsets = new int[256];
    private int[] lengths = new int[256];
    private int count;
    private int used;
    private final long maxBytes;

    StagedTransaction(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /**
     * Encodes one record at the end of the buffer, growing it until the record fits.
     *
     * @param encode writes into {@link #buffer()} at the given offset with at most {@link #room()} bytes and returns its length
     */
    void add(IntUnaryOperator encode) {
        while (true) {
            try {
                int length = encode.applyAsInt(used);
                if (length > 0) { // 0: nothing to ship for this event (e.g. the first half of a key change)
                    append(length);
                }
                return;
            } catch (io.rdmarepl.format.RecordCapacityException e) {
                grow(Math.max(bytes.capacity() * 2L, used + e.required()));
            }
        }
    }

    ByteBuffer buffer() {
        return bytes;
    }

    int room() {
        return bytes.capacity() - used;
    }

    /** Bytes staged so far. */
    int bytes() {
        return used;
    }

    int count() {
        return count;
    }

    int offset(int i) {
        return offsets[i];
    }

    int length(int i) {
        return lengths[i];
    }

    void clear() {
        count = 0;
        used = 0;
    }

    private void append(int length) {
        if (count == offsets.length) {
            offsets = Arrays.copyOf(offsets, count * 2);
            lengths = Arrays.copyOf(lengths, count * 2);
        }
        offsets[count] = used;
        lengths[count] = length;
        count++;
        used += length;
    }

    private void grow(long wanted) {
        if (wanted > maxBytes) {
            throw new IllegalStateException("transaction larger than " + maxBytes + " bytes encoded: too large to stage");
        }
        ByteBuffer larger = ByteBuffer.allocateDirect((int) Math.min(wanted, Integer.MAX_VALUE - 8)).order(ByteOrder.LITTLE_ENDIAN);
        larger.put(0, bytes, 0, used);
        bytes = larger;
    }
}
