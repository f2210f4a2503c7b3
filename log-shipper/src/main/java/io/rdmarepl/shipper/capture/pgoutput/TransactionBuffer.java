package io.rdmarepl.shipper.capture.pgoutput;

import io.rdmarepl.format.RecordKind;
import io.rdmarepl.format.codec.RecordDescriptor;
import io.rdmarepl.format.codec.RecordEncoder;
import io.rdmarepl.format.codec.TransactionDescriptor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The log-format records of one source transaction while it is decoded, back to back in one buffer that grows and
 * never shrinks: room for the Begin at offset 0 (written once the commit LSN is known), then Relation, row and
 * truncate records, then the Commit. Each record carries a tag: the xid of the (sub)transaction that made it in a
 * streamed transaction, 0 otherwise, so that a rolled-back subtransaction's records can be taken out again.
 * Reused from transaction to transaction; one {@link RecordEncoder} per buffer, so the encoder's view of the buffer
 * is made once per growth, not per record.
 */
final class TransactionBuffer {
    private static final int INITIAL_CAPACITY = 64 * 1024;

    private final long maxBytes;
    private final RecordEncoder encoder = new RecordEncoder();
    private ByteBuffer bytes;
    private int used;
    private int[] offsets = new int[256];
    private int[] lengths = new int[256];
    private int[] tags = new int[256];
    private int count;
    private int changes;
    private int xid;
    private boolean streamed;
    private long stamp;
    private RelationEntry[] relations = new RelationEntry[16];
    private int[] relationGenerations = new int[16];
    private int[] relationTags = new int[16];
    private int relationCount;
    private int[] markerTags = new int[4];
    private int[] markerPositions = new int[4];
    private int markerCount;

    TransactionBuffer(long maxBytes) {
        this.maxBytes = maxBytes;
        this.bytes = ByteBuffer.allocateDirect((int) Math.min(INITIAL_CAPACITY, maxBytes)).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Starts transaction {@code xid}, keeping room for its Begin; {@code stamp} is unique among all starts. */
    void start(int xid, boolean streamed, long stamp) {
        this.xid = xid;
        this.streamed = streamed;
        this.stamp = stamp;
        this.used = 0;
        this.count = 0;
        this.changes = 0;
        Arrays.fill(relations, 0, relationCount, null);
        this.relationCount = 0;
        this.markerCount = 0;
        append(TransactionDescriptor.BEGIN_LENGTH, 0, false);
    }

    int xid() {
        return xid;
    }

    boolean streamed() {
        return streamed;
    }

    ByteBuffer buffer() {
        return bytes;
    }

    RecordEncoder encoder() {
        return encoder;
    }

    /** Where the next record goes. */
    int used() {
        return used;
    }

    /** Bytes free after {@link #used()}. */
    int room() {
        return bytes.capacity() - used;
    }

    /** Records held, the Begin's room included. */
    int recordCount() {
        return count;
    }

    /** Row and truncate records held. */
    int changes() {
        return changes;
    }

    boolean holdsMarker() {
        return markerCount > 0;
    }

    /**
     * Makes room for {@code needed} more bytes, growing to twice the capacity (or what is needed), never past the
     * limit.
     *
     * @throws PgOutputException naming the transaction and the limit when it would grow past it
     */
    void ensure(long needed, DecodeContext context) {
        if (needed <= room()) {
            return;
        }
        long wanted = used + needed;
        if (wanted > maxBytes) {
            throw context.fail("transaction " + Integer.toUnsignedLong(xid) + " does not fit the limit of " + maxBytes
                + " bytes of encoded records: " + used + " bytes held, " + needed + " more needed");
        }
        long capacity = Math.min(Math.max(2L * bytes.capacity(), wanted), maxBytes);
        ByteBuffer larger = ByteBuffer.allocateDirect((int) capacity).order(ByteOrder.LITTLE_ENDIAN);
        larger.put(0, bytes, 0, used);
        bytes = larger;
    }

    /** Takes note of the record of {@code length} bytes just written at {@link #used()}. */
    void append(int length, int tag, boolean change) {
        if (count == offsets.length) {
            offsets = Arrays.copyOf(offsets, count * 2);
            lengths = Arrays.copyOf(lengths, count * 2);
            tags = Arrays.copyOf(tags, count * 2);
        }
        offsets[count] = used;
        lengths[count] = length;
        tags[count] = tag;
        count++;
        used += length;
        if (change) {
            changes++;
        }
    }

    /**
     * Puts {@code entry}'s Relation record in before a change of it, unless this transaction already holds its current
     * description, or the transaction is not streamed and the sink already received that description (a transaction
     * that is not streamed reaches the sink right after everything before it; a streamed one may commit after others
     * changed the description, so it always carries its own).
     */
    void includeRelation(RelationEntry entry, int tag, DecodeContext context) {
        int generation = entry.generation();
        if (entry.stagedStamp == stamp && entry.stagedGeneration == generation
            || !streamed && entry.sentGeneration == generation) {
            return;
        }
        byte[] record = entry.record();
        ensure(record.length, context);
        bytes.put(used, record);
        append(record.length, tag, false);
        entry.stagedStamp = stamp;
        entry.stagedGeneration = generation;
        if (relationCount == relations.length) {
            relations = Arrays.copyOf(relations, relationCount * 2);
            relationGenerations = Arrays.copyOf(relationGenerations, relationCount * 2);
            relationTags = Arrays.copyOf(relationTags, relationCount * 2);
        }
        relations[relationCount] = entry;
        relationGenerations[relationCount] = generation;
        relationTags[relationCount] = tag;
        relationCount++;
    }

    /** A catch-up marker written by (sub)transaction {@code tag}, after the records held now. */
    void addMarker(int tag) {
        if (markerCount == markerTags.length) {
            markerTags = Arrays.copyOf(markerTags, markerCount * 2);
            markerPositions = Arrays.copyOf(markerPositions, markerCount * 2);
        }
        markerTags[markerCount] = tag;
        markerPositions[markerCount] = count;
        markerCount++;
    }

    /**
     * Takes out every record of subtransaction {@code subxid} (the records after them move down), and every marker
     * it wrote or that came after its first record: pgoutput tags a streamed transaction's logical decoding messages
     * with the top-level xid, and a subtransaction's abort reaches the decoder before anything written after it.
     *
     * @return true if a Relation record was taken out: the caller then gives the buffer a new stamp
     */
    boolean abortSubtransaction(int subxid) {
        int first = -1;
        for (int i = 1; i < count; i++) {
            if (tags[i] == subxid) {
                first = i;
                break;
            }
        }
        int kept = 0;
        for (int m = 0; m < markerCount; m++) {
            if (markerTags[m] != subxid && (first < 0 || markerPositions[m] <= first)) {
                markerTags[kept] = markerTags[m];
                markerPositions[kept] = markerPositions[m];
                kept++;
            }
        }
        markerCount = kept;
        if (first < 0) {
            return false;
        }
        int write = first;
        int at = offsets[first];
        for (int r = first; r < count; r++) {
            if (tags[r] == subxid) {
                continue;
            }
            if (offsets[r] != at) {
                bytes.put(at, bytes, offsets[r], lengths[r]);
            }
            offsets[write] = at;
            lengths[write] = lengths[r];
            tags[write] = tags[r];
            write++;
            at += lengths[r];
        }
        count = write;
        used = at;
        changes = 0;
        for (int i = 1; i < count; i++) {
            if (bytes.get(offsets[i] + RecordDescriptor.KIND_OFFSET) != RecordKind.RELATION.code()) {
                changes++;
            }
        }
        int keptRelations = 0;
        for (int i = 0; i < relationCount; i++) {
            if (relationTags[i] != subxid) {
                relations[keptRelations] = relations[i];
                relationGenerations[keptRelations] = relationGenerations[i];
                relationTags[keptRelations] = relationTags[i];
                keptRelations++;
            }
        }
        boolean removed = keptRelations != relationCount;
        Arrays.fill(relations, keptRelations, relationCount, null);
        relationCount = keptRelations;
        return removed;
    }

    /** A new stamp after Relation records were taken out: the ones still held are marked as held under it. */
    void restamp(long newStamp) {
        stamp = newStamp;
        for (int i = 0; i < relationCount; i++) {
            relations[i].stagedStamp = newStamp;
            relations[i].stagedGeneration = relationGenerations[i];
        }
    }

    /** Writes the Begin into its room and the Commit after the last record; returns the bytes of all the records. */
    int finish(long txId, long commitLsn, long endLsn, long commitTimeUs, DecodeContext context) {
        encoder.encodeBegin(bytes, 0, TransactionDescriptor.BEGIN_LENGTH, txId, commitLsn, commitTimeUs);
        ensure(TransactionDescriptor.COMMIT_LENGTH, context);
        append(encoder.encodeCommit(bytes, used, room(), txId, commitLsn, endLsn, commitTimeUs), 0, false);
        return used;
    }

    /** The sink received this transaction: the Relation descriptions in it are the stream's latest. */
    void markRelationsSent() {
        for (int i = 0; i < relationCount; i++) {
            relations[i].sentGeneration = relationGenerations[i];
        }
    }
}
