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

/**
 * One table, primary against replica, as the demo's TableComparison does: row count and an md5 over the ordered
 * text form of every row, read with the same session settings on both servers. When they differ, the rows the
 * replica lacks and the rows it has too many of (as multisets: a duplicated row of a keyless table counts).
 */
record TableDiff(String table, long primaryRows, long replicaRows, boolean equal, List<String> missing, List<String> extra) {
    private static final int SHOWN = 20;
    private static final String SESSION =
            "SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET extra_float_digits = 3; SET IntervalStyle = 'postgres'";

    static TableDiff of(String table, PostgresServer primary, PostgresServer replica) throws SQLException {
        String[] p = checksum(primary, table);
        String[] r = checksum(replica, table);
        long primaryRows = Long.parseLong(p[0]);
        long replicaRows = Long.parseLong(r[0]);
        if (p[0].equals(r[0]) && p[1].equals(r[1])) {
            return new TableDiff(table, primaryRows, replicaRows, true, List.of(), List.of());
        }
        Map<String, Integer> counts = new HashMap<>();
        rows(primary, table).forEach(row -> counts.merge(row, 1, Integer::sum));
        rows(replica, table).forEach(row -> counts.merge(row, -1, Integer::sum));
        List<String> missing = new ArrayList<>();
        List<String> extra = new ArrayList<>();
        counts.forEach((row, n) -> {
            for (int i = 0; i < Math.abs(n); i++) {
                (n > 0 ? missing : extra).add(row);
            }
        });
        missing.sort(null);
        extra.sort(null);
        return new TableDiff(table, primaryRows, replicaRows, false, missing, extra);
    }

    @Override
    public String toString() {
        if (equal) {
            return table + ": " + primaryRows + " rows on both, equal";
        }
        return table + ": " + primaryRows + " rows on the primary, " + replicaRows + " on the replica, DIFFERENT; "
                + missing.size() + " missing on the replica " + missing.subList(0, Math.min(SHOWN, missing.size())) + ", "
                + extra.size() + " extra on the replica " + extra.subList(0, Math.min(SHOWN, extra.size()));
    }

    private static String[] checksum(PostgresServer server, String table) throws SQLException {
        try (Connection c = server.connect("postgres"); Statement s = c.createStatement()) {
            s.execute(SESSION);
            try (ResultSet rs = s.executeQuery("SELECT count(*), coalesce(md5(string_agg(x, E'\\n' ORDER BY x)), '') FROM (SELECT t::text AS x FROM "
                    + table + " t) rows")) {
                rs.next();
                return new String[] {rs.getString(1), rs.getString(2)};
            }
        }
    }

    private static List<String> rows(PostgresServer server, String table) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = server.connect("postgres"); Statement s = c.createStatement()) {
            s.execute(SESSION);
            try (ResultSet rs = s.executeQuery("SELECT t::text FROM " + table + " t")) {
                while (rs.next()) {
                    rows.add(rs.getString(1));
                }
            }
        }
        return rows;
    }
}
