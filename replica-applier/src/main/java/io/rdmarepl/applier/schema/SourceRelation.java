package io.rdmarepl.applier.schema;

import io.rdmarepl.format.codec.RelationView;

/**
 * A table as the primary described it in a Relation record, copied out of the decoder's view
 * (control plane: Relation records are rare).
 */
public record SourceRelation(int relationId, String schema, String table, char replicaIdentity,
                             String[] columnNames, int[] typeOids, String[] typeNames, boolean[] key) {

    public static SourceRelation copyOf(RelationView view) {
        int n = view.columnCount();
        String[] names = new String[n];
        int[] oids = new int[n];
        String[] types = new String[n];
        boolean[] key = new boolean[n];
        for (int i = 0; i < n; i++) {
            names[i] = view.columnName(i);
            oids[i] = view.columnTypeOid(i);
            types[i] = view.columnTypeName(i);
            key[i] = view.isKeyColumn(i);
        }
        return new SourceRelation(view.relationId(), view.schema(), view.table(), view.replicaIdentity(), names, oids,
                types, key);
    }

    public int columnCount() {
        return columnNames.length;
    }

    public String qualifiedName() {
        return SqlNames.describe(schema, table);
    }

    /** Same shape as {@code other}: same table, columns, types and key. */
    public boolean sameShape(SourceRelation other) {
        return other != null && schema.equals(other.schema) && table.equals(other.table)
                && replicaIdentity == other.replicaIdentity
                && java.util.Arrays.equals(columnNames, other.columnNames)
                && java.util.Arrays.equals(typeOids, other.typeOids)
                && java.util.Arrays.equals(key, other.key);
    }
}
