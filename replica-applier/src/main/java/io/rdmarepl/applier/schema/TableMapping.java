package io.rdmarepl.applier.schema;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * How one source relation lands in one replica table: source columns matched BY NAME to replica columns
 * (the order may differ), generated replica columns left out, the key to find rows by, whether inserts
 * need OVERRIDING SYSTEM VALUE, and the sequence behind each column. Built when a relation is first used
 * (and again after a schema problem), read on the hot path.
 */
public final class TableMapping {
    private final SourceRelation source;
    private final ReplicaTable replica;
    private final ReplicaColumn[] target;
    private final int[] sourceKey;
    private final int[] replicaKey;
    private final boolean overridingSystemValue;
    private final long[][] sequenceHolders;
    private final int[] conflictKey;
    private final boolean insertsNeverCollide;

    private TableMapping(SourceRelation source, ReplicaTable replica, ReplicaColumn[] target, int[] sourceKey,
                         int[] replicaKey, boolean overridingSystemValue, long[][] sequenceHolders) {
        this.source = source;
        this.replica = replica;
        this.target = target;
        this.sourceKey = sourceKey;
        this.replicaKey = replicaKey;
        this.overridingSystemValue = overridingSystemValue;
        this.sequenceHolders = sequenceHolders;
        this.conflictKey = conflictKey(source, replica, sourceKey, replicaKey);
        this.insertsNeverCollide = replica.keyDecidesConflicts() && replica.primaryKey().isEmpty() && !replica.firesForApplier();
    }

    /**
     * @throws SchemaMismatchException naming the table and column when the replica lacks either
     */
    public static TableMapping build(SourceRelation source, Optional<ReplicaTable> found, SequenceTracker sequences)
            throws SchemaMismatchException {
        if (found.isEmpty()) {
            throw new SchemaMismatchException(source.qualifiedName(), null, "the replica has no table "
                    + source.qualifiedName());
        }
        ReplicaTable replica = found.get();
        Map<String, ReplicaColumn> byName = replica.byName();
        int n = source.columnCount();
        ReplicaColumn[] target = new ReplicaColumn[n];
        long[][] holders = new long[n][];
        List<Integer> key = new ArrayList<>();
        boolean overriding = false;
        for (int i = 0; i < n; i++) {
            String name = source.columnNames()[i];
            ReplicaColumn column = byName.get(name);
            if (column == null) {
                throw new SchemaMismatchException(source.qualifiedName(), name, "replica table " + source.qualifiedName()
                        + " has no column " + SqlNames.quote(name) + " (source type " + source.typeNames()[i] + ")");
            }
            if (source.key()[i]) {
                key.add(i);
            }
            if (column.generated()) {
                continue;
            }
            target[i] = column;
            overriding |= column.identityAlways();
            if (column.sequence() != null) {
                holders[i] = sequences.holder(column.sequence());
            }
        }
        int[] replicaKey = replicaKeyIndexes(source, replica);
        return new TableMapping(source, replica, target, key.stream().mapToInt(Integer::intValue).toArray(), replicaKey,
                overriding, holders);
    }

    /** Source column indexes of the replica's primary key, or null when it has none or the source lacks a column of it. */
    private static int[] replicaKeyIndexes(SourceRelation source, ReplicaTable replica) {
        List<ReplicaColumn> pk = replica.primaryKey();
        if (pk.isEmpty()) {
            return null;
        }
        int[] indexes = new int[pk.size()];
        for (int k = 0; k < indexes.length; k++) {
            indexes[k] = -1;
            for (int i = 0; i < source.columnCount(); i++) {
                if (source.columnNames()[i].equals(pk.get(k).name())) {
                    indexes[k] = i;
                }
            }
            if (indexes[k] < 0) {
                return null;
            }
        }
        return indexes;
    }

    /**
     * Source types whose encoded values are equal exactly when PostgreSQL's equality says so (no scale as in
     * numeric, no padding as in bpchar, no -0.0 as in floats); text and varchar rely on the deterministic
     * collation {@link ReplicaTable#keyDecidesConflicts} demands.
     */
    private static final Set<Integer> BYTE_EQUAL_TYPES = Set.of(16, 17, 20, 21, 23, 25, 1043, 1082, 1114, 1184, 2950);

    private static int[] conflictKey(SourceRelation source, ReplicaTable replica, int[] sourceKey, int[] replicaKey) {
        if (!replica.keyDecidesConflicts() || replica.firesForApplier() || replicaKey == null || sourceKey.length == 0) {
            return null;
        }
        int[] a = sourceKey.clone();
        int[] b = replicaKey.clone();
        Arrays.sort(a);
        Arrays.sort(b);
        if (!Arrays.equals(a, b)) {
            return null;
        }
        Map<String, ReplicaColumn> byName = replica.byName();
        for (int c : a) {
            int type = source.typeOids()[c];
            // the replica's column decides equality: it must be the very same byte-comparable type
            if (!BYTE_EQUAL_TYPES.contains(type) || byName.get(source.columnNames()[c]).typeOid() != type) {
                return null;
            }
        }
        return a;
    }

    /**
     * The source columns whose values alone decide whether two changes of this table can touch the same row or
     * collide on a constraint: the replica's primary key, when it is the source's replica identity, the table's
     * only unique constraint and byte-comparable, and no trigger fires for the applier. Null when any two changes of
     * the table may collide (they then keep their order).
     */
    public int[] conflictKey() {
        return conflictKey;
    }

    /**
     * Two inserts into this table can never collide: it has no unique or exclusion index at all (not even a primary
     * key), is not partitioned and fires nothing for the applier. Such inserts may run in any order against each
     * other; an update or delete of the table still orders against them.
     */
    public boolean insertsNeverCollide() {
        return insertsNeverCollide;
    }

    /** A change of this table must run after every change before it and before every change after it. */
    public boolean firesForApplier() {
        return replica.firesForApplier();
    }

    public SourceRelation source() {
        return source;
    }

    public ReplicaTable replica() {
        return replica;
    }

    public int columnCount() {
        return target.length;
    }

    /** True if source column {@code i} is written (false for columns generated on the replica). */
    public boolean writes(int i) {
        return target[i] != null;
    }

    /** The replica column source column {@code i} maps to (null if generated). */
    public ReplicaColumn column(int i) {
        return target[i];
    }

    /** The name of source column {@code i} (also the replica column's name). */
    public String columnName(int i) {
        return source.columnNames()[i];
    }

    /** The replica identity columns the source flagged, as source column indexes. */
    public int[] sourceKey() {
        return sourceKey;
    }

    public boolean isSourceKey(int i) {
        return source.key()[i];
    }

    /** Source column indexes of the replica's primary key, or null (then inserts are plain and FULL rows match by value). */
    public int[] replicaKey() {
        return replicaKey;
    }

    public boolean overridingSystemValue() {
        return overridingSystemValue;
    }

    /** The tracker holder of the sequence behind column {@code i}, or null. */
    public long[] sequenceHolder(int i) {
        return sequenceHolders[i];
    }

    public String qualifiedName() {
        return replica.qualifiedName();
    }
}
