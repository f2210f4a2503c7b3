package io.rdmarepl.shipper.encode;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads tables' columns from the primary's catalog and hands out {@link RelationInfo}s: relation id = the
 * table's pg_class OID, and a version per table that grows whenever the column list seen for it changes.
 *
 * <p>The catalog is the truth for what Debezium's events do not carry exactly: type OIDs, a castable type name,
 * typmods, domains resolved to base types, enums, the replica identity key, and which columns pgoutput
 * publishes (generated and dropped columns are not). It is re-read each time {@link #relationFor} is called,
 * which the encoder does only when Debezium hands it a table schema it has not seen (start, reconnect, DDL).
 *
 * <p>Events are historical, the catalog is current. A column added after an event was written is simply not in
 * that event's column list (the relation for that event lists the columns the event has); a column dropped since
 * is typed from Debezium's propagated source type name and appended last. A column retyped since is described
 * with its new type: the old values are still written exactly, but under the new type's name (rare; the applier
 * casts them).
 *
 * <p>Partitioned tables: events name the leaf partition unless the publication has
 * {@code publish_via_partition_root = true}, in which case they name the root. Either works here (the relation is
 * whatever table the event names); the root is recommended, so that the replica may partition differently and a
 * row moving between partitions arrives as one Update rather than a Delete and an Insert on different leaves.
 *
 * <p>Not thread-safe: one per encoding thread. Holds one JDBC connection, reopened after a failure.
 */
public final class RelationCatalog implements AutoCloseable {
    /** Opens connections to the primary. */
    @FunctionalInterface
    public interface ConnectionSource {
        Connection open() throws SQLException;
    }

    private static final String TABLE_SQL = "SELECT c.oid, c.relreplident FROM pg_catalog.pg_class c "
        + "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relname = ?";
    private static final String COLUMNS_SQL = "SELECT a.attname, a.atttypid, a.atttypmod, a.attidentity, "
        + "(c.relreplident = 'f' OR a.attnum = ANY (SELECT unnest(i.indkey) FROM pg_catalog.pg_index i "
        + "  WHERE i.indrelid = c.oid AND ((c.relreplident = 'd' AND i.indisprimary) "
        + "  OR (c.relreplident = 'i' AND i.indisreplident)))) AS key "
        + "FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid = a.attrelid "
        + "WHERE a.attrelid = ? AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = '' ORDER BY a.attnum";
    private static final String TYPE_SQL = "SELECT t.typtype, t.typbasetype, t.typelem, t.typcategory, "
        + "CASE WHEN n.nspname = 'pg_catalog' THEN pg_catalog.quote_ident(t.typname) "
        + "ELSE pg_catalog.quote_ident(n.nspname) || '.' || pg_catalog.quote_ident(t.typname) END "
        + "FROM pg_catalog.pg_type t JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace WHERE t.oid = ?";
    private static final String TYPE_BY_NAME_SQL = "SELECT t.oid FROM pg_catalog.pg_type t WHERE t.typname = ? "
        + "ORDER BY t.typnamespace <> 'pg_catalog'::regnamespace, t.oid LIMIT 1";

    private record TypeInfo(char typtype, int baseType, int elementType, char category, String name) {
    }

    private record Resolved(String name, ValueKind kind, ValueKind elementKind) {
    }

    private final ConnectionSource source;
    private final Map<Integer, TypeInfo> types = new HashMap<>();
    private final Map<Integer, RelationInfo> latest = new HashMap<>();
    private Connection connection;

    public RelationCatalog(ConnectionSource source) {
        this.source = source;
    }

    /** A catalog reading through {@code DriverManager.getConnection(jdbcUrl, properties)}. */
    public static RelationCatalog forJdbcUrl(String jdbcUrl, Properties properties) {
        Properties copy = new Properties();
        copy.putAll(properties);
        return new RelationCatalog(() -> DriverManager.getConnection(jdbcUrl, copy));
    }

    /** The table's current published columns, all of them (a fresh catalog read). */
    public RelationInfo current(String schema, String table) {
        return relationFor(schema, table, null, name -> null);
    }

    /**
     * The relation for an event on {@code schema.table} carrying exactly the columns {@code columnNames}
     * ({@code null}: all published columns), read fresh from the catalog. Returns the previous RelationInfo of the
     * table if nothing changed, else a new one with the next version.
     *
     * @param sourceTypeOf Debezium's propagated source type name of a column (e.g. {@code INT4}, {@code _TEXT}),
     *                     used only for a column the catalog no longer has
     * @throws IllegalStateException naming the table if it does not exist or the catalog cannot be read
     */
    public RelationInfo relationFor(String schema, String table, Set<String> columnNames,
                                    Function<String, String> sourceTypeOf) {
        try {
            return withRetry(() -> build(schema, table, columnNames, sourceTypeOf));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the columns of " + schema + "." + table
                + " from the primary's catalog: " + e.getMessage(), e);
        }
    }

    private interface SqlWork<T> {
        T run() throws SQLException;
    }

    private <T> T withRetry(SqlWork<T> work) throws SQLException {
        try {
            return work.run();
        } catch (SQLException first) {
            closeQuietly();
            return work.run();
        }
    }

    private RelationInfo build(String schema, String table, Set<String> columnNames,
                               Function<String, String> sourceTypeOf) throws SQLException {
        Connection c = connection();
        int oid;
        char replicaIdentity;
        try (PreparedStatement s = c.prepareStatement(TABLE_SQL)) {
            s.setString(1, schema);
            s.setString(2, table);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("table " + schema + "." + table + " is not in the primary's catalog");
                }
                oid = rs.getInt(1);
                replicaIdentity = rs.getString(2).charAt(0);
            }
        }
        List<ColumnInfo> columns = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(COLUMNS_SQL)) {
            s.setInt(1, oid);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    String name = rs.getString(1);
                    seen.add(name);
                    if (columnNames != null && !columnNames.contains(name)) {
                        continue;
                    }
                    String identity = rs.getString(4);
                    columns.add(column(name, rs.getInt(2), rs.getInt(3), rs.getBoolean(5),
                        identity == null || identity.isEmpty() ? '\0' : identity.charAt(0)));
                }
            }
        }
        if (columnNames != null) {
            for (String name : columnNames) {
                if (!seen.contains(name)) {
                    columns.add(droppedColumn(schema, table, name, sourceTypeOf.apply(name), replicaIdentity == 'f'));
                }
            }
        }
        RelationInfo previous = latest.get(oid);
        RelationInfo candidate = new RelationInfo(oid, previous == null ? 1 : previous.version() + 1, schema, table,
            replicaIdentity, columns);
        if (candidate.sameColumns(previous) && previous.schema().equals(schema) && previous.table().equals(table)) {
            return previous;
        }
        latest.put(oid, candidate);
        return candidate;
    }

    private ColumnInfo column(String name, int typeOid, int typmod, boolean key, char identity) throws SQLException {
        Resolved r = resolve(typeOid, 0);
        return new ColumnInfo(name, typeOid, r.name(), typmod, key, identity, r.kind(), r.elementKind());
    }

    private ColumnInfo droppedColumn(String schema, String table, String name, String sourceType, boolean key)
        throws SQLException {
        if (sourceType == null) {
            throw new IllegalStateException("column " + name + " of " + schema + "." + table
                + " is in the change event but not in the primary's catalog, and its type is unknown");
        }
        try (PreparedStatement s = connection().prepareStatement(TYPE_BY_NAME_SQL)) {
            s.setString(1, sourceType.toLowerCase(java.util.Locale.ROOT));
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("column " + name + " of " + schema + "." + table
                        + " was dropped and its type " + sourceType + " is not in the primary's catalog");
                }
                return column(name, rs.getInt(1), -1, key, '\0');
            }
        }
    }

    private Resolved resolve(int typeOid, int depth) throws SQLException {
        TypeInfo t = type(typeOid);
        if (t.typtype() == 'd' && depth < 32) {
            Resolved base = resolve(t.baseType(), depth + 1);
            return new Resolved(t.name(), base.kind(), base.elementKind());
        }
        if (t.typtype() == 'e') {
            return new Resolved(t.name(), ValueKind.ENUM, null);
        }
        if (t.category() == 'A' && t.elementType() != 0) {
            Resolved element = resolve(t.elementType(), depth + 1);
            return new Resolved(element.name() + "[]", ValueKind.ARRAY, element.kind() == ValueKind.ARRAY ? ValueKind.FALLBACK : element.kind());
        }
        return new Resolved(t.name(), ValueKind.ofBaseType(typeOid), null);
    }

    private TypeInfo type(int oid) throws SQLException {
        TypeInfo cached = types.get(oid);
        if (cached != null) {
            return cached;
        }
        try (PreparedStatement s = connection().prepareStatement(TYPE_SQL)) {
            s.setInt(1, oid);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("type OID " + oid + " is not in the primary's catalog");
                }
                TypeInfo t = new TypeInfo(rs.getString(1).charAt(0), rs.getInt(2), rs.getInt(3),
                    rs.getString(4).charAt(0), rs.getString(5));
                types.put(oid, t);
                return t;
            }
        }
    }

    private Connection connection() throws SQLException {
        if (connection == null || connection.isClosed()) {
            connection = source.open();
            connection.setAutoCommit(true);
        }
        return connection;
    }

    private void closeQuietly() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // reopened on next use
            }
            connection = null;
        }
    }

    @Override
    public void close() {
        closeQuietly();
    }
}
