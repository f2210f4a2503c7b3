package io.rdmarepl.testsupport.compare;

import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What a server's catalog says: schemas, tables (their columns and keys) and sequences. */
final class Catalog {
    /** Never compared by default: the applier's own bookkeeping (applied position) lives there on a replica. */
    static final String OWN_SCHEMA = "rdmarepl";

    /** A relation by its schema and name. */
    record Name(String schema, String name) {
        String display() {
            return Identifiers.display(schema, name);
        }

        String qualified() {
            return Identifiers.qualified(schema, name);
        }
    }

    private Catalog() {
    }

    /** @return every schema but pg_*, information_schema and {@value #OWN_SCHEMA}, by name */
    static List<String> userSchemas(ServerSession session) throws SQLException {
        return strings(session, "list its schemas", """
                SELECT nspname FROM pg_catalog.pg_namespace
                WHERE nspname !~ '^pg_' AND nspname <> 'information_schema' AND nspname <> ?
                ORDER BY nspname COLLATE "C"
                """, OWN_SCHEMA);
    }

    /** @throws SQLException naming the server if a schema does not exist there */
    static void requireSchemas(ServerSession session, List<String> schemas) throws SQLException {
        List<String> present = strings(session, "list its schemas",
                "SELECT nspname FROM pg_catalog.pg_namespace WHERE nspname = ANY (?)", schemas);
        for (String schema : schemas) {
            if (!present.contains(schema)) {
                throw new SQLException(session.label() + ": no schema " + Identifiers.quote(schema));
            }
        }
    }

    /**
     * @return the ordinary and partitioned tables of the schemas, partitions left out (each is compared through
     * its root), ordered by schema and name
     */
    static List<Name> tables(ServerSession session, List<String> schemas) throws SQLException {
        return names(session, "list the tables of schemas " + schemas, """
                SELECT n.nspname, c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND n.nspname = ANY (?)
                ORDER BY n.nspname COLLATE "C", c.relname COLLATE "C"
                """, schemas);
    }

    /** @return the sequences of the schemas, ordered by schema and name */
    static List<Name> sequences(ServerSession session, List<String> schemas) throws SQLException {
        return names(session, "list the sequences of schemas " + schemas, """
                SELECT n.nspname, c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                WHERE c.relkind = 'S' AND n.nspname = ANY (?)
                ORDER BY n.nspname COLLATE "C", c.relname COLLATE "C"
                """, schemas);
    }

    /**
     * @param sqlName a table as SQL names it: {@code public.t}, {@code "Odd"."T"}
     * @throws SQLException naming the server and the table if it is not a table there
     */
    static Name resolveTable(ServerSession session, String sqlName) throws SQLException {
        List<Name> found = names(session, "look up table " + sqlName, """
                SELECT n.nspname, c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                WHERE c.oid = pg_catalog.to_regclass(?) AND c.relkind IN ('r', 'p')
                """, sqlName);
        if (found.isEmpty()) {
            throw new SQLException(session.label() + ": no table " + sqlName + " (write it as SQL does: schema.table, "
                    + "double quotes around mixed-case names)");
        }
        return found.get(0);
    }

    /** @return the table's shape, or empty when the server has no table of that name */
    static Optional<TableShape> shape(ServerSession session, Name table) throws SQLException {
        String what = "read the catalog entry of table " + table.display();
        long oid;
        char relkind;
        try (PreparedStatement query = session.connection().prepareStatement("""
                SELECT c.oid, c.relkind FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = ? AND c.relname = ? AND c.relkind IN ('r', 'p')
                """)) {
            query.setString(1, table.schema());
            query.setString(2, table.name());
            try (ResultSet rs = query.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                oid = rs.getLong(1);
                relkind = rs.getString(2).charAt(0);
            }
        } catch (SQLException e) {
            throw session.failure(what, e);
        }
        Map<String, String> columns = new LinkedHashMap<>();
        try (PreparedStatement query = session.connection().prepareStatement("""
                SELECT attname, pg_catalog.format_type(atttypid, atttypmod) FROM pg_catalog.pg_attribute
                WHERE attrelid = ? AND attnum > 0 AND NOT attisdropped ORDER BY attnum
                """)) {
            query.setLong(1, oid);
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    columns.put(rs.getString(1), rs.getString(2));
                }
            }
        } catch (SQLException e) {
            throw session.failure(what, e);
        }
        List<String> key = keyColumns(session, oid, "indisprimary", what);
        if (key.isEmpty()) {
            key = keyColumns(session, oid, "indisreplident", what);
        }
        return Optional.of(new TableShape(table.schema(), table.name(), relkind, columns, key));
    }

    private static List<String> keyColumns(ServerSession session, long oid, String flag, String what) throws SQLException {
        List<String> key = new ArrayList<>();
        try (PreparedStatement query = session.connection().prepareStatement("""
                SELECT a.attname FROM pg_catalog.pg_index i
                CROSS JOIN LATERAL pg_catalog.unnest(i.indkey::pg_catalog.int2[]) WITH ORDINALITY AS k (attnum, ord)
                JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                WHERE i.indrelid = ? AND i.%s AND k.ord <= i.indnkeyatts
                ORDER BY k.ord
                """.formatted(flag))) {
            query.setLong(1, oid);
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    key.add(rs.getString(1));
                }
            }
        } catch (SQLException e) {
            throw session.failure(what, e);
        }
        return key;
    }

    /** @return whether the server has a sequence of that name */
    static boolean hasSequence(ServerSession session, Name sequence) throws SQLException {
        return !names(session, "look up sequence " + sequence.display(), """
                SELECT n.nspname, c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = ? AND c.relname = ? AND c.relkind = 'S'
                """, sequence.schema(), sequence.name()).isEmpty();
    }

    /** @return {@code last_value=N, is_called=true}, read from the sequence relation itself */
    static String sequenceState(ServerSession session, Name sequence) throws SQLException {
        try (PreparedStatement query = session.connection().prepareStatement(
                "SELECT last_value::pg_catalog.text, is_called FROM " + sequence.qualified());
             ResultSet rs = query.executeQuery()) {
            rs.next();
            return "last_value=" + rs.getString(1) + ", is_called=" + rs.getBoolean(2);
        } catch (SQLException e) {
            throw session.failure("read sequence " + sequence.display(), e);
        }
    }

    /** @return the server's database encoding, e.g. UTF8 */
    static String encoding(ServerSession session) throws SQLException {
        return strings(session, "read its encoding", "SELECT pg_catalog.current_setting('server_encoding')").get(0);
    }

    private static List<Name> names(ServerSession session, String what, String sql, Object... parameters) throws SQLException {
        List<Name> names = new ArrayList<>();
        try (PreparedStatement query = prepare(session, sql, parameters); ResultSet rs = query.executeQuery()) {
            while (rs.next()) {
                names.add(new Name(rs.getString(1), rs.getString(2)));
            }
        } catch (SQLException e) {
            throw session.failure(what, e);
        }
        return names;
    }

    private static List<String> strings(ServerSession session, String what, String sql, Object... parameters) throws SQLException {
        List<String> values = new ArrayList<>();
        try (PreparedStatement query = prepare(session, sql, parameters); ResultSet rs = query.executeQuery()) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        } catch (SQLException e) {
            throw session.failure(what, e);
        }
        return values;
    }

    private static PreparedStatement prepare(ServerSession session, String sql, Object... parameters) throws SQLException {
        PreparedStatement query = session.connection().prepareStatement(sql);
        try {
            for (int i = 0; i < parameters.length; i++) {
                if (parameters[i] instanceof List<?> list) {
                    Array array = session.connection().createArrayOf("text", list.toArray());
                    query.setArray(i + 1, array);
                } else {
                    query.setString(i + 1, parameters[i].toString());
                }
            }
            return query;
        } catch (SQLException e) {
            query.close();
            throw e;
        }
    }
}
