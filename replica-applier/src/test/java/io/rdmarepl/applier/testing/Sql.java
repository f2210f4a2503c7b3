package io.rdmarepl.applier.testing;

import io.rdmarepl.testsupport.PostgresServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Reads and writes a test server as a client would, in a session pinned to UTC and ISO output. */
public final class Sql {
    private Sql() {
    }

    /** Rows as lists of PostgreSQL text forms (null for NULL). */
    public static List<List<String>> rows(PostgresServer server, String sql) throws SQLException {
        try (Connection c = server.connect("postgres"); Statement s = c.createStatement()) {
            s.execute("SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET IntervalStyle = 'postgres'; "
                    + "SET extra_float_digits = 3");
            List<List<String>> out = new ArrayList<>();
            try (ResultSet r = s.executeQuery(sql)) {
                ResultSetMetaData meta = r.getMetaData();
                while (r.next()) {
                    List<String> row = new ArrayList<>();
                    for (int i = 1; i <= meta.getColumnCount(); i++) {
                        row.add(r.getString(i));
                    }
                    out.add(row);
                }
            }
            return out;
        }
    }

    public static long count(PostgresServer server, String sql) throws SQLException {
        return Long.parseLong(rows(server, sql).get(0).get(0));
    }

    /** Runs statements in a writable session (the replica is read-only for clients by default). */
    public static void write(PostgresServer server, String sql) {
        try (Connection c = server.connect("postgres"); Statement s = c.createStatement()) {
            s.execute("SET default_transaction_read_only = off");
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(server + ": failed: " + sql, e);
        }
    }
}
