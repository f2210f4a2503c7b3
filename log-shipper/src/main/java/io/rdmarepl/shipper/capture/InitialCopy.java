package io.rdmarepl.shipper.capture;

import io.rdmarepl.format.codec.RecordEncoder;
import io.rdmarepl.format.codec.TransactionDescriptor;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The initial copy ({@code snapshot.mode=initial}): Debezium's snapshot reads, shipped as chunks of about
 * {@code snapshot.chunk.bytes}, each its own replica transaction, so neither side ever holds the whole copy.
 * Every chunk carries the LSN the snapshot was taken at, the slot's consistent point: a transaction that
 * committed before it is in the copy, a later one streams after it, so the seam has no gap and no duplicate.
 *
 * <p>The first chunk empties every published table on the standby, so a copy that was cut short and is taken
 * again leaves nothing behind. Every chunk but the last is flagged
 * {@link TransactionDescriptor#BEGIN_SNAPSHOT_CHUNK_FLAG}: the applier's position, and with it the
 * acknowledgement, moves only once the whole copy is in.
 */
final class InitialCopy {
    private static final Logger LOG = LoggerFactory.getLogger(InitialCopy.class);

    /** Ships what is staged as one transaction. */
    interface Shipping {
        void ship(long commitLsn, long commitTimeUs, int beginFlags);
    }

    private final ChangeEncoding encoding;
    private final StagedTransaction staged;
    private final Map<Integer, Integer> relationsSent;
    private final Supplier<List<String[]>> publishedTables;
    private final Consumer<SourceRecord> stageRow;
    private final Shipping shipping;
    private final long chunkBytes;
    private final RecordEncoder encoder = new RecordEncoder();
    private volatile boolean active; // read by /status
    private volatile long snapshotLsn; // read by /status
    private long snapshotTimeUs;
    private long chunks;
    private long rows;

    /**
     * @param publishedTables schema and table of every published table, read when the copy starts
     * @param stageRow stages a change record's row (and its Relation when the standby has not seen it)
     */
    InitialCopy(ChangeEncoding encoding, StagedTransaction staged, Map<Integer, Integer> relationsSent,
                Supplier<List<String[]>> publishedTables, Consumer<SourceRecord> stageRow, Shipping shipping, long chunkBytes) {
        this.encoding = encoding;
        this.staged = staged;
        this.relationsSent = relationsSent;
        this.publishedTables = publishedTables;
        this.stageRow = stageRow;
        this.shipping = shipping;
        this.chunkBytes = chunkBytes;
    }

    /**
     * Stages one snapshot read and ships a chunk when enough is staged.
     *
     * @return the copy's LSN when this read was the copy's last one (the copy is then shipped whole), else 0
     */
    long onRead(SourceRecord record) {
        Struct source = ((Struct) record.value()).getStruct("source");
        if (!active) {
            start(record, source);
        }
        stageRow.accept(record);
        rows++;
        if ("last".equals(source.getString("snapshot"))) {
            shipping.ship(snapshotLsn, snapshotTimeUs, 0);
            staged.clear();
            chunks++;
            active = false;
            LOG.info("initial copy shipped: {} rows in {} chunks at LSN {}", rows, chunks, io.rdmarepl.format.Lsn.format(snapshotLsn));
            return snapshotLsn;
        }
        if (staged.bytes() >= chunkBytes) {
            shipping.ship(snapshotLsn, snapshotTimeUs, TransactionDescriptor.BEGIN_SNAPSHOT_CHUNK_FLAG);
            staged.clear();
            chunks++;
        }
        return 0;
    }

    /**
     * Ships a copy without rows at {@code lsn}: the published tables are all empty, and the standby's are emptied
     * to match (one transaction: Relations, Truncate).
     */
    void shipEmpty(long lsn) {
        begin(lsn, System.currentTimeMillis() * 1000L);
        shipping.ship(snapshotLsn, snapshotTimeUs, 0);
        staged.clear();
        active = false;
        LOG.info("initial copy: every published table is empty on the primary; emptied them on the standbys at LSN {}",
                io.rdmarepl.format.Lsn.format(snapshotLsn));
    }

    /** A copy is being shipped: its last read has not come yet. */
    boolean active() {
        return active;
    }

    /** The LSN of the last copy (known from its first read on), or 0 when none was taken. */
    long lsn() {
        return snapshotLsn;
    }

    private void start(SourceRecord record, Struct source) {
        Object lsn = source.schema().field("lsn") != null ? source.get("lsn") : null;
        if (!(lsn instanceof Number) && record.sourceOffset().get("lsn") instanceof Number offsetLsn) {
            lsn = offsetLsn;
        }
        if (!(lsn instanceof Number number)) {
            throw new IllegalStateException("snapshot read of " + record.topic() + " carries no LSN: cannot place the initial copy");
        }
        begin(number.longValue(), source.schema().field("ts_us") != null && source.getInt64("ts_us") != null
                ? source.getInt64("ts_us") : System.currentTimeMillis() * 1000L);
    }

    /** Stages what opens every copy: each published table's Relation, then one Truncate emptying them all. */
    private void begin(long lsn, long timeUs) {
        active = true;
        snapshotLsn = lsn;
        snapshotTimeUs = timeUs;
        chunks = 0;
        rows = 0;
        staged.clear();
        List<String[]> tables = publishedTables.get();
        int[] ids = new int[tables.size()];
        for (int i = 0; i < ids.length; i++) {
            TableRelation relation = encoding.currentRelation(tables.get(i)[0], tables.get(i)[1]);
            staged.add(at -> relation.encodeRelation(staged.buffer(), at, staged.room()));
            relationsSent.put(relation.id(), relation.version());
            ids[i] = relation.id();
        }
        if (ids.length > 0) {
            staged.add(at -> encoder.encodeTruncate(staged.buffer(), at, staged.room(), false, false, ids, ids.length));
        }
        LOG.info("initial copy of {} published table(s) at LSN {}", ids.length, io.rdmarepl.format.Lsn.format(snapshotLsn));
    }
}
