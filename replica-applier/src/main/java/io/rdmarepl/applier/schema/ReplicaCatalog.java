package io.rdmarepl.applier.schema;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads a table's shape from the replica's catalog (pg_class, pg_attribute, pg_index).
 *
 * <p>Each column's cast type is {@code format_type(atttypid, -1)}: the type with no modifier at all ({@code bpchar},
 * {@code "bit"}, {@code bpchar[]}). {@code format_type(atttypid, NULL)} writes {@code character} and {@code bit}, which
 * SQL reads as {@code character(1)} and {@code bit(1)}: a value cast to them is cut to one character or bit before the
 * column sees it. Casting to the column's full type ({@code character(5)}) would cut silently too when the replica's
 * column is narrower than the primary's; without a modifier the column's own assignment rules apply, and a value
 * that does not fit is refused with an error (apply pauses) instead of being shortened.
 */
public final class ReplicaCatalog {
    private static final String TABLE_SQL = """
            SELECT c.oid, c.relkind FROM pg_catalog.pg_class c
              JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = ? AND c.relname = ? AND c.relkind IN ('r', 'p')""";
    private static final String COLUMNS_SQL = """
            SELECT a.attname,
                   pg_catalog.format_type(a.atttypid, -1),
                   pg_catalog.format_type(a.atttypid, a.atttypmod),
                   a.attgenerated <> '',
                   a.attidentity <> '',
                   a.attidentity = 'a',
                   pg_catalog.pg_get_serial_sequence(pg_catalog.format('%I.%I', ?::text, ?::text), a.attname),
                   COALESCE(a.attnum = ANY (i.indkey), false),
                   a.atttypid::int
              FROM pg_catalog.pg_attribute a
              LEFT JOIN pg_catalog.pg_index i ON i.indrelid = a.attrelid AND i.indisprimary
             WHERE a.attrelid = ? AND a.attnum > 0 AND NOT a.attisdropped
             ORDER BY a.attnum""";

    /**
     * (1) the primary key is the table's only unique or exclusion index and compares its values byte by byte
     * (deterministic collations): then two row changes can collide only through equal keys; (2) a trigger or rule
     * fires for the applier (enabled ALWAYS or REPLICA, as the applier runs with session_replication_role=replica):
     * its code may read or write any table, so the changes around it must have run in source order.
     */
    private static final String KEY_DECIDES_CONFLICTS_SQL = """
            SELECT NOT EXISTS (SELECT 1 FROM pg_catalog.pg_index i
                                WHERE i.indrelid = ? AND (i.indisunique OR i.indisexclusion) AND NOT i.indisprimary)
               AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_index i
                                 CROSS JOIN LATERAL unnest(i.indcollation::pg_catalog.oid[]) AS k(coll)
                                 JOIN pg_catalog.pg_collation c ON c.oid = k.coll
                                WHERE i.indrelid = ? AND i.indisprimary AND NOT c.collisdeterministic),
                   EXISTS (SELECT 1 FROM pg_catalog.pg_trigger t
                            WHERE t.tgrelid = ? AND NOT t.tgisinternal AND t.tgenabled IN ('A', 'R'))
                OR EXISTS (SELECT 1 FROM pg_catalog.pg_rewrite r
                            WHERE r.ev_class = ? AND r.rulename <> '_RETURN' AND r.ev_enabled IN ('A', 'R'))""";

    private ReplicaCatalog() {
    }

    /** The table, or empty when the replica has no table (or partitioned table) of that name. */
    public static Optional<ReplicaTable> load(Connection connection, String schema, String table) throws SQLException {
        long oid;
        boolean partitioned;
        try (PreparedStatement find = connection.prepareStatement(TABLE_SQL)) {
            find.setString(1, schema);
            find.setString(2, table);
            try (ResultSet rows = find.executeQuery()) {
                if (!rows.next()) {
                    return Optional.empty();
                }
                oid = rows.getLong(1);
                partitioned = "p".equals(rows.getString(2));
            }
        }
        List<ReplicaColumn> columns = new ArrayList<>();
        try (PreparedStatement read = connection.prepareStatement(COLUMNS_SQL)) {
            read.setString(1, schema);
            read.setString(2, table);
            read.setLong(3, oid);
            try (ResultSet rows = read.executeQuery()) {
                while (rows.next()) {
                    columns.add(new ReplicaColumn(rows.getString(1), rows.getString(2), rows.getString(3), rows.getBoolean(4),
                            rows.getBoolean(5), rows.getBoolean(6), rows.getString(7), rows.getBoolean(8), rows.getInt(9)));
                }
            }
        }
        boolean keyDecidesConflicts;
        boolean firesForApplier;
        try (PreparedStatement read = connection.prepareStatement(KEY_DECIDES_CONFLICTS_SQL)) {
            for (int p = 1; p <= 4; p++) {
                read.setLong(p, oid);
            }
            try (ResultSet rows = read.executeQuery()) {
                rows.next();
                keyDecidesConflicts = rows.getBoolean(1);
                firesForApplier = rows.getBoolean(2);
            }
        }
        return Optional.of(new ReplicaTable(schema, table, partitioned, columns, keyDecidesConflicts && !partitioned,
                firesForApplier));
    }
}
