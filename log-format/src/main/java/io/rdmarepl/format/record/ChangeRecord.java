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

    /** Rows as COPY text ({@link io.rdmarepl.format.codec.CopyChunkDescriptor}); {@code text} is UTF-8, every row ended by a newline. */
    record CopyChunk(int relationId, List<Integer> columns, int rowCount, byte[] text) implements ChangeRecord {
        public CopyChunk {
            columns = List.copyOf(columns);
            text = text.clone();
        }

        @Override
        public byte[] text() {
            return text.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof CopyChunk c && c.relationId == relationId && c.columns.equals(columns)
                && c.rowCount == rowCount && java.util.Arrays.equals(c.text, text);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(relationId, columns, rowCount, java.util.Arrays.hashCode(text));
        }

        @Override
        public String toString() {
            return "CopyChunk[relationId=" + relationId + ", columns=" + columns + ", rowCount=" + rowCount + ", text="
                + new String(text, java.nio.charset.StandardCharsets.UTF_8) + "]";
        }

        public RecordKind kind() { return RecordKind.COPY_CHUNK; }
    }
}
