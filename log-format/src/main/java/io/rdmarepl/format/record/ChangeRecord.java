package io.rdmarepl.format.record;

import io.rdmarepl.format.OldTupleKind;
import io.rdmarepl.format.RecordKind;
import java.util.List;

/** A change record as an immutable value; see {@link io.rdmarepl.format.codec.RecordDescriptor} for the wire form. */
public sealed interface ChangeRecord {
    RecordKind kind();

    record Begin(long txId, long commitLsn, long commitTimeUs) implements ChangeRecord {
        public RecordKind kind() { return RecordKind.BEGIN; }
    }

    record Commit(long txId, long commitLsn, long endLsn, long commitTimeUs) implements ChangeRecord {
        public RecordKind kind() { return RecordKind.COMMIT; }
    }

    record Heartbeat(long timeUs, long lastLsn) implements ChangeRecord {
        public RecordKind kind() { return RecordKind.HEARTBEAT; }
    }

    /** {@code replicaIdentity} is PostgreSQL's relreplident character (d, n, f, i). */
    record Relation(int relationId, String schema, String table, char replicaIdentity, List<Column> columns)
        implements ChangeRecord {
        public Relation {
            columns = List.copyOf(columns);
        }

        public RecordKind kind() { return RecordKind.RELATION; }
    }

    record Insert(int relationId, Tuple newTuple) implements ChangeRecord {
        public RecordKind kind() { return RecordKind.INSERT; }
    }

    /** {@code oldTuple} is null exactly when {@code oldTupleKind} is NONE. */
    record Update(int relationId, OldTupleKind oldTupleKind, Tuple oldTuple, Tuple newTuple) implements ChangeRecord {
        public Update {
            if ((oldTuple == null) != (oldTupleKind == OldTupleKind.NONE) || newTuple == null) {
                throw new IllegalArgumentException("Update with old tuple kind " + oldTupleKind + " and old tuple " + oldTuple);
            }
        }

        public RecordKind kind() { return RecordKind.UPDATE; }
    }

    /** {@code oldTupleKind} is KEY or FULL. */
    record Delete(int relationId, OldTupleKind oldTupleKind, Tuple oldTuple) implements ChangeRecord {
        public Delete {
            if (oldTupleKind == OldTupleKind.NONE || oldTuple == null) {
                throw new IllegalArgumentException("a Delete needs an old key or old tuple");
            }
        }

        public RecordKind kind() { return RecordKind.DELETE; }
    }

    /** A sequence's {@code last_value} and {@code is_called} on the primary, read at {@code readTimeUs}. */
    record Sequence(String schema, String name, long lastValue, boolean isCalled, long readTimeUs) implements ChangeRecord {
        public RecordKind kind() { return RecordKind.SEQUENCE; }
    }

    record Truncate(boolean cascade, boolean restartIdentity, List<Integer> relationIds) implements ChangeRecord {
        public Truncate {
            relationIds = List.copyOf(relationIds);
        }

        public RecordKind kind() { return RecordKind.TRUNCATE; }
    }
}
