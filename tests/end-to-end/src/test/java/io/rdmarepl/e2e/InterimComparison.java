package io.rdmarepl.e2e;

import io.rdmarepl.testsupport.PostgresServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * THROWAWAY, until the project's comparison (io.rdmarepl.testsupport.compare, branch fidelity-compare) is merged:
 * every ordinary table of the given schemas, primary against replica, column by column for keyed tables (text
 * forms under fixed session settings), as multisets of row text for keyless ones. Differences have the shape of
 * the real comparison's ({@code relation}, {@code (id)=(7)} key, column, both values). Sequences not compared.
 */
final class InterimComparison {
    private static final String SESSION = "SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET IntervalStyle = 'postgres'; "
            + "SET extra_float_digits = 3; SET bytea_output = 'hex'";

    record Diff(String kind, String relation, String key, String column, String primaryValue, String replicaValue) {
        @Override
        public String toString() {
            return relation + ": " + kind + (key == null ? "" : " at " + key) + (column == null ? "" : ", column " + column)
                    + ": primary " + cut(primaryValue) + ", replica " + cut(replicaValue);
        }

        private static String cut(String v) {
            return v == null ? "NULL" : "'" + (v.length() > 200 ? v.substring(0, 200) + "... (" + v.length() + " chars)" : v) + "'";
        }
    }

    private InterimComparison() {
    }

    static List<Diff> run(PostgresServer primary, PostgresServer replica, String... schemas) throws SQLException {
        List<Diff> diffs = new ArrayList<>();
        try (Connection p = primary.connect("postgres"); Connection r = replica.connect("postgres")) {
            for (Connection c : new Connection[] {p, r}) {
                try (Statement s = c.createStatement()) {
                    s.execute(SESSION);
                }
            }
            for (String[] table : tables(p, schemas)) {
                compare(p, r, table[0], table[1], diffs);
            }
        }
        return diffs;
    }

    private static void compare(Connection p, Connection r, String relation, String oid, List<Diff> diffs) throws SQLException {
        List<String> columns = strings(p, "SELECT quote_ident(attname) FROM pg_attribute WHERE attrelid = " + oid
                + " AND attnum > 0 AND NOT attisdropped ORDER BY attnum");
        List<String> key = strings(p, "SELECT quote_ident(a.attname) FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid"
                + " AND a.attnum = ANY (i.indkey) WHERE i.indrelid = " + oid + " AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)");
        if (key.isEmpty()) {
            String sql = "SELECT t::text FROM " + relation + " t";
            Map<String, Integer> counts = new HashMap<>();
            strings(p, sql).forEach(row -> counts.merge(row, 1, Integer::sum));
            strings(r, sql).forEach(row -> counts.merge(row, -1, Integer::sum));
            counts.forEach((row, n) -> {
                for (int i = 0; i < Math.abs(n); i++) {
                    diffs.add(n > 0 ? new Diff("row missing", relation, null, null, row, null) : new Diff("row extra", relation, null, null, null, row));
                }
            });
            return;
        }
        String keyText = "'(" + String.join(", ", key).replace("'", "''") + ")=(' || concat_ws(', ', "
                + String.join(", ", key.stream().map(k -> k + "::text").toList()) + ") || ')'";
        String sql = "SELECT " + keyText + ", " + String.join(", ", columns.stream().map(c -> c + "::text").toList())
                + " FROM " + relation;
        Map<String, String[]> primaryRows = rows(p, sql);
        Map<String, String[]> replicaRows = rows(r, sql);
        for (Map.Entry<String, String[]> row : primaryRows.entrySet()) {
            String[] other = replicaRows.remove(row.getKey());
            if (other == null) {
                diffs.add(new Diff("row missing", relation, row.getKey(), null, String.join("|", nulls(row.getValue())), null));
                continue;
            }
            for (int i = 0; i < columns.size(); i++) {
                if (!java.util.Objects.equals(row.getValue()[i], other[i])) {
                    diffs.add(new Diff("column differs", relation, row.getKey(), columns.get(i), row.getValue()[i], other[i]));
                }
            }
        }
        replicaRows.forEach((k, v) -> diffs.add(new Diff("row extra", relation, k, null, null, String.join("|", nulls(v)))));
    }

    private static List<String> nulls(String[] values) {
        return java.util.Arrays.stream(values).map(v -> v == null ? "NULL" : v).toList();
    }

    private static List<String[]> tables(Connection c, String... schemas) throws SQLException {
        List<String[]> tables = new ArrayList<>();
        String list = String.join(", ", java.util.Arrays.stream(schemas).map(s -> "'" + s.replace("'", "''") + "'").toList());
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname), c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                        + " WHERE c.relkind = 'r' AND n.nspname IN (" + list + ") ORDER BY n.nspname, c.relname")) {
            while (rs.next()) {
                tables.add(new String[] {rs.getString(1), rs.getString(2)});
            }
        }
        return tables;
    }

    private static Map<String, String[]> rows(Connection c, String sql) throws SQLException {
        Map<String, String[]> rows = new TreeMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                String[] values = new String[n - 1];
                for (int i = 2; i <= n; i++) {
                    values[i - 2] = rs.getString(i);
                }
                rows.put(rs.getString(1), values);
            }
        }
        return rows;
    }

    private static List<String> strings(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
