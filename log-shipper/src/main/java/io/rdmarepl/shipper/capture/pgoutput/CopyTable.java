package io.rdmarepl.shipper.capture.pgoutput;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A published table as the initial copy reads it: its columns (generated ones left out, as pgoutput leaves them out),
 * their types and which form the replica identity, its OID (the relation id the stream uses) and the planner's idea
 * of its size, read from the catalog in the copy's snapshot.
 */
record CopyTable(String schema, String name, int oid, char identity, boolean partitioned, List<String> columns,
                 int[] typeOids, int[] typeModifiers, String[] typeNames, boolean[] keys, long estimatedRows, long heapBytes) {
    private static final String COLUMNS = """
            SELECT a.attname, a.atttypid, a.atttypmod,
                   CASE WHEN tn.nspname = 'pg_catalog' THEN pg_catalog.quote_ident(t.typname)
                        ELSE pg_catalog.format('%I.%I', tn.nspname, t.typname) END,
                   c.relreplident = 'f' OR COALESCE(a.attnum = ANY (i.indkey), false),
                   c.relreplident, c.relkind
              FROM pg_catalog.pg_class c
              JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
              JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid
              JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
              JOIN pg_catalog.pg_namespace tn ON tn.oid = t.typnamespace
              LEFT JOIN pg_catalog.pg_index i ON i.indrelid = c.oid
                   AND ((c.relreplident = 'd' AND i.indisprimary) OR (c.relreplident = 'i' AND i.indisreplident))
             WHERE n.nspname = ? AND c.relname = ? AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
             ORDER BY a.attnum""";
    /** OID, the planner's row estimate (reltuples, -1 until analyzed: 0 here) and the main fork's size. */
    private static final String SIZE = "SELECT c.oid, GREATEST(c.reltuples, 0)::bigint, pg_catalog.pg_relation_size(c.oid)"
            + " FROM pg_catalog.pg_class c WHERE c.oid = pg_catalog.format('%I.%I', ?, ?)::regclass";

    /** {@code schema.name} as people write it, for progress: unquoted. */
    String displayName() {
        return schema + "." + name;
    }

    /** Quoted, for SQL and error messages. */
    String qualified() {
        return ReplicationCommands.quoteIdentifier(schema) + "." + ReplicationCommands.quoteIdentifier(name);
    }

    /** {@code COPY (SELECT <columns> FROM [ONLY] <table>) TO STDOUT}: text format, columns in the Relation's order. */
    String copySql() {
        StringBuilder sql = new StringBuilder("COPY (SELECT ");
        for (int i = 0; i < columns.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(ReplicationCommands.quoteIdentifier(columns.get(i)));
        }
        return sql.append(" FROM ").append(partitioned ? "" : "ONLY ").append(qualified()).append(") TO STDOUT").toString();
    }

    static CopyTable describe(Connection connection, String schema, String name) throws SQLException {
        List<String> columns = new ArrayList<>();
        List<int[]> types = new ArrayList<>();
        List<String> typeNames = new ArrayList<>();
        List<Boolean> keys = new ArrayList<>();
        char identity = 'd';
        boolean partitioned = false;
        try (PreparedStatement query = connection.prepareStatement(COLUMNS)) {
            query.setString(1, schema);
            query.setString(2, name);
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    columns.add(rs.getString(1));
                    types.add(new int[] {(int) rs.getLong(2), rs.getInt(3)});
                    typeNames.add(rs.getString(4));
                    keys.add(rs.getBoolean(5));
                    identity = rs.getString(6).charAt(0);
                    partitioned = "p".equals(rs.getString(7));
                }
            }
        }
        int oid;
        long estimatedRows;
        long heapBytes;
        try (PreparedStatement query = connection.prepareStatement(SIZE)) {
            query.setString(1, schema);
            query.setString(2, name);
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                oid = (int) rs.getLong(1);
                estimatedRows = rs.getLong(2);
                heapBytes = rs.getLong(3);
            }
        }
        int n = columns.size();
        int[] oids = new int[n];
        int[] modifiers = new int[n];
        boolean[] key = new boolean[n];
        for (int i = 0; i < n; i++) {
            oids[i] = types.get(i)[0];
            modifiers[i] = types.get(i)[1];
            key[i] = keys.get(i);
        }
        return new CopyTable(schema, name, oid, identity, partitioned, List.copyOf(columns), oids, modifiers,
                typeNames.toArray(String[]::new), key, estimatedRows, heapBytes);
    }
}
