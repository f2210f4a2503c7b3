package io.rdmarepl.shipper.capture.pgoutput;

import java.util.Arrays;

/**
 * The transaction buffers: the ones of streamed transactions still in progress, found by their top-level xid,
 * and a pool of free ones. A buffer goes back to the pool when its transaction is handed over or aborted and
 * keeps its capacity, so in steady state no buffer is allocated.
 */
final class TransactionBuffers {
    private final long maxTransactionBytes;
    private TransactionBuffer[] free = new TransactionBuffer[4];
    private int freeCount;
    private TransactionBuffer[] streaming = new TransactionBuffer[4];
    private int streamingCount;
    private long nextStamp = 1;

    TransactionBuffers(long maxTransactionBytes) {
        this.maxTransactionBytes = maxTransactionBytes;
    }

    /** A buffer for transaction {@code xid}; a streamed one can then be found with {@link #streamed(int)}. */
    TransactionBuffer acquire(int xid, boolean streamed) {
        TransactionBuffer buffer;
        if (freeCount > 0) {
            buffer = free[--freeCount];
            free[freeCount] = null;
        } else {
            buffer = new TransactionBuffer(maxTransactionBytes);
        }
        buffer.start(xid, streamed, nextStamp());
        if (streamed) {
            if (streamingCount == streaming.length) {
                streaming = Arrays.copyOf(streaming, streamingCount * 2);
            }
            streaming[streamingCount++] = buffer;
        }
        return buffer;
    }

    /** The buffer of streamed transaction {@code xid} in progress, or null. */
    TransactionBuffer streamed(int xid) {
        for (int i = 0; i < streamingCount; i++) {
            if (streaming[i].xid() == xid) {
                return streaming[i];
            }
        }
        return null;
    }

    /** Streamed transactions in progress. */
    int streamingCount() {
        return streamingCount;
    }

    /** The transaction of {@code buffer} is over (handed over or aborted): the buffer is free again. */
    void release(TransactionBuffer buffer) {
        if (buffer.streamed()) {
            for (int i = 0; i < streamingCount; i++) {
                if (streaming[i] == buffer) {
                    streaming[i] = streaming[--streamingCount];
                    streaming[streamingCount] = null;
                    break;
                }
            }
        }
        if (freeCount == free.length) {
            free = Arrays.copyOf(free, freeCount * 2);
        }
        free[freeCount++] = buffer;
    }

    /** Forgets every streamed transaction in progress. */
    void releaseStreaming() {
        while (streamingCount > 0) {
            release(streaming[streamingCount - 1]);
        }
    }

    /** A stamp no buffer had before. */
    long nextStamp() {
        return nextStamp++;
    }
}
