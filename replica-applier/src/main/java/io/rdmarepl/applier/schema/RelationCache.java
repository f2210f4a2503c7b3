package io.rdmarepl.applier.schema;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * Source relations by id, as the stream defined them, and their mapping onto the replica, resolved from
 * the replica's catalog on first use. {@link #invalidateMappings()} forgets every mapping, so a retry after
 * a schema problem sees the operator's fix.
 */
public final class RelationCache {
    private final Map<Integer, Entry> entries = new HashMap<>();
    private final SequenceTracker sequences;
    private long generation;

    public RelationCache(SequenceTracker sequences) {
        this.sequences = sequences;
    }

    /** Records a Relation; returns true when it changed a relation already known (mappings must be rebuilt). */
    public boolean define(SourceRelation relation) {
        Entry old = entries.get(relation.relationId());
        if (old != null && old.source.sameShape(relation)) {
            return false;
        }
        entries.put(relation.relationId(), new Entry(relation));
        if (old != null) {
            generation++;
        }
        return old != null;
    }

    /**
     * The mapping of {@code relationId}, read from the replica's catalog on first use.
     *
     * @throws SchemaMismatchException when the replica lacks the table or a column
     * @throws IllegalStateException when the stream used a relation it never defined (a shipper bug)
     */
    public TableMapping mapping(int relationId, Connection connection) throws SchemaMismatchException, SQLException {
        Entry entry = entries.get(relationId);
        if (entry == null) {
            throw new IllegalStateException("row change for relation " + relationId
                    + " before any Relation record defined it: the stream breaks the ChangeStream contract");
        }
        if (entry.mapping == null) {
            entry.mapping = TableMapping.build(entry.source,
                    ReplicaCatalog.load(connection, entry.source.schema(), entry.source.table()), sequences);
        }
        return entry.mapping;
    }

    /** The mapping of {@code relationId} if it was already read from the catalog, else null (nothing is read). */
    public TableMapping resolvedMapping(int relationId) {
        Entry entry = entries.get(relationId);
        return entry == null ? null : entry.mapping;
    }

    public SourceRelation source(int relationId) {
        Entry entry = entries.get(relationId);
        return entry == null ? null : entry.source;
    }

    public void invalidateMappings() {
        entries.values().forEach(e -> e.mapping = null);
        generation++;
    }

    /** Changes whenever mappings may have changed: statements prepared before are stale. */
    public long generation() {
        return generation;
    }

    private static final class Entry {
        final SourceRelation source;
        TableMapping mapping;

        Entry(SourceRelation source) {
            this.source = source;
        }
    }
}
