package io.rdmarepl.applier.apply;

import io.rdmarepl.applier.schema.RelationCache;
import io.rdmarepl.applier.schema.SchemaMismatchException;
import io.rdmarepl.applier.schema.TableMapping;
import io.rdmarepl.format.codec.CopyChunkView;
import io.rdmarepl.format.codec.RecordDecoder;
import io.rdmarepl.format.codec.RecordHandler;
import io.rdmarepl.format.codec.RelationView;
import io.rdmarepl.format.codec.RowChangeView;
import io.rdmarepl.format.codec.SequenceView;
import io.rdmarepl.format.codec.TruncateView;
import io.rdmarepl.format.codec.TupleView;
import java.sql.SQLException;

/**
 * The write set of a segment (a run of complete transactions one apply worker applies as one replica transaction),
 * and the rule that says whether two segments may run side by side. Computed on the apply thread before dispatch.
 *
 * <p>A token is 64 bits; its low two bits are its kind, bit 2 a flag, the rest a hash:
 * <pre>
 *  KEY            hash(relation, conflict-key values)   a row of a table whose key alone decides conflicts
 *  KEY | CREATED  the same hash                          ... which the segment inserted, or moved a row to
 *  TABLE          hash(relation)                        a change of a table where any two changes may collide
 *  INSERTS        hash(relation)                        an insert into a table with no unique index at all
 *  ANY_KEY        hash(relation)                        some KEY token of this relation is in the set
 *  COPY           hash(relation)                        an initial copy's chunk of this relation (INSERTS | CREATED)
 * </pre>
 * How long a later segment waits for an earlier one it meets ({@link #meet}):
 * <ul>
 *   <li>until the earlier one has <em>sent</em> its rows, when they share only keys the earlier one did not create:
 *       it then holds those rows' locks, so the later one's change of such a row blocks inside the replica until the
 *       earlier commits, and then applies on top of it (PostgreSQL re-reads the row an UPDATE or DELETE waited for;
 *       an INSERT waits on the key an uncommitted DELETE freed). The later segment's other rows run meanwhile.
 *   <li>until the earlier one has <em>committed</em>, when it created a key the later one touches (an UPDATE or DELETE
 *       does not see an uncommitted row, it would find none), or they meet on a TABLE token, or an INSERTS or ANY_KEY
 *       token meets a TABLE token of the same relation.
 * </ul>
 * Inserts into a table without unique indexes do not meet each other: no order of them can make a difference. A hash
 * collision only adds waiting.
 *
 * <p>A segment that holds a Relation, Truncate or Sequence record, a change of a table whose trigger or rule fires for
 * the applier, a key that cannot be read (an unchanged TOASTed key column), or a relation the replica cannot map runs
 * alone: after every segment before it committed, on the apply thread, which also reports any error it meets.
 */
final class SegmentWriteSet implements RecordHandler {
    static final long KEY = 0;
    static final long TABLE = 1;
    static final long INSERTS = 2;
    static final long ANY_KEY = 3;
    static final long CREATED = 4;
    static final long COPY = INSERTS | CREATED;
    private static final long KIND = 3;
    /** {@link #meet}: the segments may run side by side. */
    static final int APART = 0;
    /** {@link #meet}: the later may start once the earlier sent its rows. */
    static final int AFTER_SENT = 1;
    /** {@link #meet}: the later may start once the earlier committed. */
    static final int AFTER_COMMIT = 2;
    private static final long RELATION_SEED = 0x9E3779B97F4A7C15L;

    private final RecordDecoder decoder = new RecordDecoder();
    private final RelationCache relations;
    private final ReplicaSession session;
    private LongSet tokens;
    private String alone;
    private boolean readCatalog;

    SegmentWriteSet(RelationCache relations, ReplicaSession session) {
        this.relations = relations;
        this.session = session;
    }

    /**
     * Fills {@code into} with the write set of transactions {@code first .. first + count - 1} of {@code log}.
     *
     * @return null, or why the segment must run alone
     */
    String compute(GroupLog log, int first, int count, LongSet into) {
        tokens = into;
        into.clear();
        alone = null;
        readCatalog = false;
        int at = log.transactionStart(first);
        int end = log.transactionEnd(first + count - 1);
        try {
            while (at < end && alone == null) {
                at += decoder.decode(log.buffer(), at, end - at, this);
            }
        } catch (RuntimeException e) {
            alone = "a record the write set cannot read (" + e.getMessage() + ")";
        }
        if (readCatalog) {
            try {
                session.connection().commit(); // the catalog reads opened a transaction: do not leave it idle
            } catch (SQLException e) {
                session.discard();
            }
        }
        return alone;
    }

    /**
     * How long a segment with write set {@code later} must wait for an earlier one with write set {@code earlier}:
     * {@link #APART}, {@link #AFTER_SENT} or {@link #AFTER_COMMIT}.
     */
    static int meet(LongSet later, LongSet earlier) {
        int level = APART;
        for (long token : later.slots()) {
            if (token == 0) {
                continue;
            }
            long base = token & ~(KIND | CREATED);
            if ((token & CREATED) != 0) {
                // a CREATED key's plain KEY token is in the set too; a chunk meets every change of its table but no chunk
                if (token == (base | COPY) && (earlier.contains(base | TABLE) || earlier.contains(base | INSERTS)
                        || earlier.contains(base | ANY_KEY))) {
                    return AFTER_COMMIT;
                }
                continue;
            }
            switch ((int) (token & KIND)) {
                case (int) KEY -> {
                    if (earlier.contains(token | CREATED)) {
                        return AFTER_COMMIT;
                    }
                    if (earlier.contains(token)) {
                        level = AFTER_SENT;
                    }
                }
                case (int) TABLE -> {
                    if (earlier.contains(token) || earlier.contains(base | INSERTS) || earlier.contains(base | ANY_KEY)
                            || earlier.contains(base | COPY)) {
                        return AFTER_COMMIT;
                    }
                }
                default -> { // INSERTS and ANY_KEY meet only a TABLE of their relation
                    if (earlier.contains(base | TABLE) || earlier.contains(base | COPY)) {
                        return AFTER_COMMIT;
                    }
                }
            }
        }
        return level;
    }

    @Override
    public void onRelation(RelationView relation) {
        alone = "a Relation record";
    }

    @Override
    public void onTruncate(TruncateView truncate) {
        alone = "a Truncate";
    }

    @Override
    public void onSequence(SequenceView sequence) {
        alone = "a Sequence record";
    }

    /**
     * An initial copy's rows: they meet every streamed change of their table, but not another chunk of it. The chunks
     * of one copy hold distinct rows of one snapshot, in an order that does not matter (design.md), so they apply side
     * by side.
     */
    @Override
    public void onCopyChunk(CopyChunkView chunk) {
        TableMapping m = mapping(chunk.relationId());
        if (m != null) {
            tokens.add(relationToken(chunk.relationId(), COPY));
        }
    }

    @Override
    public void onInsert(RowChangeView insert) {
        TableMapping m = mapping(insert.relationId());
        if (m == null) {
            return;
        }
        if (m.conflictKey() != null) {
            key(insert.relationId(), m, insert.newTuple(), true);
        } else {
            tokens.add(relationToken(insert.relationId(), m.insertsNeverCollide() ? INSERTS : TABLE));
        }
    }

    @Override
    public void onUpdate(RowChangeView update) {
        TableMapping m = mapping(update.relationId());
        if (m == null) {
            return;
        }
        if (m.conflictKey() == null) {
            tokens.add(relationToken(update.relationId(), TABLE));
            return;
        }
        // with an old key the row may move to a new key: a row version a later segment does not see until commit
        if (update.hasOldTuple()) {
            key(update.relationId(), m, update.oldTuple(), false);
        }
        key(update.relationId(), m, update.newTuple(), update.hasOldTuple());
    }

    @Override
    public void onDelete(RowChangeView delete) {
        TableMapping m = mapping(delete.relationId());
        if (m == null) {
            return;
        }
        if (m.conflictKey() == null) {
            tokens.add(relationToken(delete.relationId(), TABLE));
        } else {
            key(delete.relationId(), m, delete.oldTuple(), false);
        }
    }

    private TableMapping mapping(int relationId) {
        if (alone != null) {
            return null;
        }
        TableMapping m = relations.resolvedMapping(relationId);
        if (m == null) {
            if (relations.source(relationId) == null) {
                alone = "relation " + relationId + " is defined in this segment";
                return null;
            }
            try {
                readCatalog = true;
                m = relations.mapping(relationId, session.connection());
            } catch (SQLException | SchemaMismatchException e) {
                alone = "relation " + relationId + " has no usable mapping yet (" + e.getMessage() + ")";
                return null;
            }
        }
        if (m.firesForApplier()) {
            alone = "a trigger or rule of " + m.qualifiedName() + " fires for the applier";
            return null;
        }
        return m;
    }

    private void key(int relationId, TableMapping m, TupleView tuple, boolean creates) {
        long h = WriteSets.mix(relationId);
        for (int c : m.conflictKey()) {
            if (tuple.isUnchangedToast(c)) {
                alone = "an unchanged TOASTed key column of " + m.qualifiedName();
                return;
            }
            h = WriteSets.mix(h ^ tuple.valueHash(c));
        }
        long token = h & ~(KIND | CREATED) | KEY;
        token = token == 0 ? CREATED << 1 : token;
        tokens.add(token);
        if (creates) {
            tokens.add(token | CREATED);
        }
        tokens.add(relationToken(relationId, ANY_KEY));
    }

    private static long relationToken(int relationId, long kind) {
        return WriteSets.mix(relationId * RELATION_SEED) & ~(KIND | CREATED) | kind;
    }
}
