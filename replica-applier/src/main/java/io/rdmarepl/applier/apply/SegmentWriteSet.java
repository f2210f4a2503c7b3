package io.rdmarepl.applier.apply;

import io.rdmarepl.applier.schema.RelationCache;
import io.rdmarepl.applier.schema.SchemaMismatchException;
import io.rdmarepl.applier.schema.TableMapping;
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
 * <p>A token is 64 bits; its low two bits are its kind, the rest a hash:
 * <pre>
 *  KEY      hash(relation, conflict-key values)   a row of a table whose key alone decides conflicts
 *  TABLE    hash(relation)                        a change of a table where any two changes may collide
 *  INSERTS  hash(relation)                        an insert into a table with no unique index at all
 *  ANY_KEY  hash(relation)                        some KEY token of this relation is in the set
 * </pre>
 * Two segments meet when they share a KEY or a TABLE token, when one's TABLE meets the other's INSERTS or ANY_KEY of
 * the same relation, or the reverse. Inserts into a table without unique indexes do not meet each other: no order of
 * them can make a difference. A hash collision only adds waiting.
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
    private static final long KIND = 3;
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

    /** Whether a segment with write set {@code a} may not run beside one with write set {@code b}. */
    static boolean meet(LongSet a, LongSet b) {
        for (long token : a.slots()) {
            if (token == 0) {
                continue;
            }
            long base = token & ~KIND;
            boolean meets = switch ((int) (token & KIND)) {
                case (int) KEY -> b.contains(token);
                case (int) TABLE -> b.contains(token) || b.contains(base | INSERTS) || b.contains(base | ANY_KEY);
                default -> b.contains(base | TABLE); // INSERTS and ANY_KEY meet only a TABLE of their relation
            };
            if (meets) {
                return true;
            }
        }
        return false;
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

    @Override
    public void onInsert(RowChangeView insert) {
        TableMapping m = mapping(insert.relationId());
        if (m == null) {
            return;
        }
        if (m.conflictKey() != null) {
            key(insert.relationId(), m, insert.newTuple());
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
        if (update.hasOldTuple()) {
            key(update.relationId(), m, update.oldTuple());
        }
        key(update.relationId(), m, update.newTuple());
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
            key(delete.relationId(), m, delete.oldTuple());
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

    private void key(int relationId, TableMapping m, TupleView tuple) {
        long h = WriteSets.mix(relationId);
        for (int c : m.conflictKey()) {
            if (tuple.isUnchangedToast(c)) {
                alone = "an unchanged TOASTed key column of " + m.qualifiedName();
                return;
            }
            h = WriteSets.mix(h ^ tuple.valueHash(c));
        }
        long token = h & ~KIND | KEY;
        tokens.add(token == 0 ? KIND + 1 : token);
        tokens.add(relationToken(relationId, ANY_KEY));
    }

    private static long relationToken(int relationId, long kind) {
        return WriteSets.mix(relationId * RELATION_SEED) & ~KIND | kind;
    }
}
