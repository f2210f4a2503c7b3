package io.rdmarepl.applier.apply;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The encoded records received but not yet committed on the replica, back to back as they came off the
 * ring (the ring's bytes are reused as soon as the reader moves on, and a failed group must be replayed),
 * with the boundaries of every complete transaction. Grows only when a larger backlog than ever arrives.
 * Single-threaded.
 *
 * <pre>
 *  0                                  completeBytes()                size()
 *  | Relation | Begin rows Commit | Begin rows Commit | Relation | Begin rows ...
 *  |<-------- tx 0 -------------->|<------ tx 1 ----->|<-- open, incomplete -->
 * </pre>
 */
final class GroupLog {
    private ByteBuffer data = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
    private int size;
    private int openTxStart = -1;
    private int[] txEnd = new int[256];
    private long[] txCommitLsn = new long[256];
    private long[] txId = new long[256];
    private long[] txCommitTimeUs = new long[256];
    private int txCount;
    private long firstCompleteNs;

    void append(ByteBuffer source, int offset, int length) {
        if (size + length > data.capacity()) {
            ByteBuffer larger = ByteBuffer.allocateDirect(Math.max(data.capacity() * 2, size + length))
                    .order(ByteOrder.LITTLE_ENDIAN);
            larger.put(0, data, 0, size);
            data = larger;
        }
        data.put(size, source, offset, length);
        size += length;
    }

    /** Marks where the transaction whose Begin is appended next starts. */
    void beginTransaction() {
        openTxStart = size;
    }

    /** The open transaction's Commit was just appended. */
    void commitTransaction(long commitLsn, long id, long commitTimeUs, long nowNs) {
        if (txCount == txEnd.length) {
            int n = txCount * 2;
            txEnd = Arrays.copyOf(txEnd, n);
            txCommitLsn = Arrays.copyOf(txCommitLsn, n);
            txId = Arrays.copyOf(txId, n);
            txCommitTimeUs = Arrays.copyOf(txCommitTimeUs, n);
        }
        if (txCount == 0) {
            firstCompleteNs = nowNs;
        }
        txEnd[txCount] = size;
        txCommitLsn[txCount] = commitLsn;
        txId[txCount] = id;
        txCommitTimeUs[txCount] = commitTimeUs;
        txCount++;
        openTxStart = -1;
    }

    /** Drops the open transaction's bytes (its writer started over before its Commit). */
    void discardOpenTransaction() {
        if (openTxStart >= 0) {
            size = openTxStart;
            openTxStart = -1;
        }
    }

    /** Removes the first {@code count} complete transactions (they are committed on the replica). */
    void consume(int count) {
        if (count == 0) {
            return;
        }
        int cut = txEnd[count - 1];
        int remaining = size - cut;
        if (remaining > 0) {
            data.put(0, data, cut, remaining);
        }
        size = remaining;
        if (openTxStart >= 0) {
            openTxStart -= cut;
        }
        int left = txCount - count;
        for (int k = 0; k < left; k++) {
            txEnd[k] = txEnd[k + count] - cut;
            txCommitLsn[k] = txCommitLsn[k + count];
            txId[k] = txId[k + count];
            txCommitTimeUs[k] = txCommitTimeUs[k + count];
        }
        txCount = left;
        firstCompleteNs = System.nanoTime();
    }

    ByteBuffer buffer() {
        return data;
    }

    int size() {
        return size;
    }

    int transactions() {
        return txCount;
    }

    /** End offset of complete transaction {@code k}. */
    int transactionEnd(int k) {
        return txEnd[k];
    }

    long commitLsn(int k) {
        return txCommitLsn[k];
    }

    long txId(int k) {
        return txId[k];
    }

    long commitTimeUs(int k) {
        return txCommitTimeUs[k];
    }

    /** Bytes of the complete transactions (what one group would apply). */
    int completeBytes() {
        return txCount == 0 ? 0 : txEnd[txCount - 1];
    }

    /** When the oldest complete transaction still here completed (monotonic ns). */
    long firstCompleteNs() {
        return firstCompleteNs;
    }

    boolean inTransaction() {
        return openTxStart >= 0;
    }
}
