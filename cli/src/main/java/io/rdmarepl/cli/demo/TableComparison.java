package io.rdmarepl.cli.demo;

import io.rdmarepl.testsupport.PostgresServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Replica = primary, table by table: row count and an ordered checksum over each row's text form,
 * read with the same session settings on both sides.
 */
final class TableComparison {
    record Result(String table, long primaryRows, long replicaRows, boolean equal) {
    }

    private TableComparison() {
    }

    static List<Result> compare(PostgresServer primary, PostgresServer replica) throws SQLException {
        List<Result> results = new ArrayList<>();
        for (String[] table : DemoSchema.COMPARED) {
            String[] p = checksum(primary, table[0], table[1]);
            String[] r = checksum(replica, table[0], table[1]);
            results.add(new Result(table[0], Long.parseLong(p[0]), Long.parseLong(r[0]), p[0].equals(r[0]) && p[1].equals(r[1])));
        }
        return results;
    }

    private static String[] checksum(PostgresServer server, String table, String columns) throws SQLException {
        String row = columns.equals("*") ? "t" : "(" + columns + ")";
        try (Connection c = server.connect("postgres"); Statement s = c.createStatement()) {
            s.execute("SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET extra_float_digits = 3; SET IntervalStyle = 'postgres'");
            try (ResultSet rs = s.executeQuery("SELECT count(*), coalesce(md5(string_agg(x, E'\\n' ORDER BY x)), '') FROM (SELECT "
                    + row + "::text AS x FROM " + table + " t) rows")) {
                rs.next();
                return new String[] {rs.getString(1), rs.getString(2)};
            }
        }
    }
}
