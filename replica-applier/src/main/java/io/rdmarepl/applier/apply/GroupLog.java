package io.rdmarepl.applier.apply;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
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
 *
 * A run of Sequence records that came between transactions is held as a unit of its own, wrapped in a Begin and
 * Commit at the position already reached ({@link #commitSequences}), so it is applied in stream order even when
 * no transaction follows it; such a unit is not a source transaction ({@link #sequencesOnly}).
 */
final class GroupLog {
    /**
     * Records beyond this many bytes go to a {@link SpillFile}: twice {@code apply.group.max.bytes}'s default, so only
     * a transaction larger than a group leaves memory. Direct memory then stays below about this much.
     */
    static final int SPILL_ABOVE_BYTES = 16 << 20;
    private static final byte SEQUENCES_ONLY = 1;
    private static final byte SNAPSHOT_CHUNK = 2;
    /** Offsets are ints: a transaction's records must fit in 2 GiB. */
    static final int MAX_BYTES = Integer.MAX_VALUE - 8;
    private final SpillFile spill;
    /** The in-memory buffer, kept while a large group is in the spill file. */
    private static final int INITIAL_BYTES = 1 << 20;
    private ByteBuffer memory = ByteBuffer.allocateDirect(INITIAL_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private ByteBuffer data = memory;
    private int size;
    private int openTxStart = -1;
    private int[] txEnd = new int[256];
    private long[] txCommitLsn = new long[256];
    private long[] txId = new long[256];
    private long[] txCommitTimeUs = new long[256];
    /** Per complete unit: {@link #SEQUENCES_ONLY}, {@link #SNAPSHOT_CHUNK}. */
    private byte[] txFlags = new byte[256];
    private int txCount;
    private long firstCompleteNs;

    GroupLog(Path spillDirectory) {
        this.spill = new SpillFile(spillDirectory);
    }

    /**
     * @throws IllegalStateException when the open transaction's records pass 2 GiB
     * @throws java.io.UncheckedIOException when the spill file cannot take them
     */
    void append(ByteBuffer source, int offset, int length) {
        if ((long) size + length > data.capacity()) {
            grow((long) size + length);
        }
        data.put(size, source, offset, length);
        size += length;
    }

    private void grow(long needed) {
        if (needed > MAX_BYTES) {
            throw new IllegalStateException("a source transaction of more than " + MAX_BYTES + " bytes of records cannot"
                    + " be applied whole: split it on the primary");
        }
        int capacity = (int) Math.min(MAX_BYTES, Math.max(needed, 2L * data.capacity()));
        if (capacity <= SPILL_ABOVE_BYTES) {
            ByteBuffer larger = ByteBuffer.allocateDirect(capacity).order(ByteOrder.LITTLE_ENDIAN);
            larger.put(0, data, 0, size);
            memory = larger;
            data = larger;
        } else {
            boolean spilled = data != memory;
            ByteBuffer mapped = spill.map(capacity); // a larger mapping of the same file keeps what it held
            if (!spilled) {
                mapped.put(0, data, 0, size);
            }
            data = mapped;
        }
    }

    /** Back to memory once what is left fits there: the spill file's disk space is given back. */
    private void unspillIfSmall() {
        if (data != memory && size <= memory.capacity()) {
            memory.put(0, data, 0, size);
            data = memory;
            spill.release();
        }
    }

    /**
     * Empties the log and gives back what it grew to: memory beyond the first size (left to the collector), the spill
     * file. For a copy that is no longer needed (an apply worker's segment, once the worker stands down).
     */
    void reset() {
        size = 0;
        txCount = 0;
        openTxStart = -1;
        if (data != memory) {
            spill.release();
        }
        if (memory.capacity() > INITIAL_BYTES) {
            memory = ByteBuffer.allocateDirect(INITIAL_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        }
        data = memory;
    }

    /** Releases the spill file (the applier stops). */
    void close() {
        spill.close();
    }

    /** Marks where the transaction whose Begin is appended next starts. */
    void beginTransaction() {
        openTxStart = size;
    }

    /**
     * The open transaction's Commit was just appended.
     *
     * @param snapshotChunk the transaction is a chunk of an initial copy (its Begin was flagged so)
     */
    void commitTransaction(long commitLsn, long id, long commitTimeUs, long nowNs, boolean snapshotChunk) {
        complete(commitLsn, id, commitTimeUs, nowNs, snapshotChunk ? SNAPSHOT_CHUNK : 0);
    }

    /**
     * The open unit of Sequence records was just closed with its Commit; {@code commitLsn} and {@code id} are the
     * position already reached, which applying the unit writes again.
     */
    void commitSequences(long commitLsn, long id, long readTimeUs, long nowNs) {
        complete(commitLsn, id, readTimeUs, nowNs, SEQUENCES_ONLY);
    }

    private void complete(long commitLsn, long id, long commitTimeUs, long nowNs, byte flags) {
        if (txCount == txEnd.length) {
            int n = txCount * 2;
            txEnd = Arrays.copyOf(txEnd, n);
            txCommitLsn = Arrays.copyOf(txCommitLsn, n);
            txId = Arrays.copyOf(txId, n);
            txCommitTimeUs = Arrays.copyOf(txCommitTimeUs, n);
            txFlags = Arrays.copyOf(txFlags, n);
        }
        if (txCount == 0) {
            firstCompleteNs = nowNs;
        }
        txEnd[txCount] = size;
        txCommitLsn[txCount] = commitLsn;
        txId[txCount] = id;
        txCommitTimeUs[txCount] = commitTimeUs;
        txFlags[txCount] = flags;
        txCount++;
        openTxStart = -1;
    }

    /**
     * Makes this log hold exactly complete transactions {@code first .. first + count - 1} of {@code source}, bytes and
     * boundaries: an apply worker's own copy of its segment, which the apply thread may then append to and consume
     * from its log meanwhile.
     */
    void copyOf(GroupLog source, int first, int count) {
        int from = first == 0 ? 0 : source.txEnd[first - 1];
        size = 0;
        txCount = 0;
        openTxStart = -1;
        append(source.data, from, source.txEnd[first + count - 1] - from);
        for (int k = 0; k < count; k++) {
            int at = first + k;
            complete(source.txCommitLsn[at], source.txId[at], source.txCommitTimeUs[at], source.firstCompleteNs,
                    source.txFlags[at]);
            txEnd[k] = source.txEnd[at] - from;
        }
    }

    /** Bytes of complete transactions {@code first .. first + count - 1}. */
    int bytesOf(int first, int count) {
        return txEnd[first + count - 1] - (first == 0 ? 0 : txEnd[first - 1]);
    }

    /** Whether the complete transactions from {@code first} on make a group: this many, or this many bytes. */
    boolean fillsGroup(int first, int maxTransactions, long maxBytes) {
        int count = transactions() - first;
        return count >= maxTransactions || count > 0 && bytesOf(first, count) >= maxBytes;
    }

    /** Start offset of complete transaction {@code k} (its first record, which may be a Relation before its Begin). */
    int transactionStart(int k) {
        return k == 0 ? 0 : txEnd[k - 1];
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
            txFlags[k] = txFlags[k + count];
        }
        txCount = left;
        firstCompleteNs = System.nanoTime();
        unspillIfSmall();
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

    /** Complete unit {@code k} holds only Sequence records (no source transaction). */
    boolean sequencesOnly(int k) {
        return txFlags[k] == SEQUENCES_ONLY;
    }

    /** Complete unit {@code k} is a chunk of an initial copy. */
    boolean snapshotChunk(int k) {
        return txFlags[k] == SNAPSHOT_CHUNK;
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
