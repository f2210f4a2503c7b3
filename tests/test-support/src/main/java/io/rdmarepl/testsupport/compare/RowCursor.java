package io.rdmarepl.testsupport.compare;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * One side's rows of a table, streamed through a server-side cursor (auto-commit is off and a fetch size set, so
 * pgjdbc fetches {@value #FETCH_ROWS} rows at a time) in the order the merge needs: by key text, then row text,
 * both {@code COLLATE "C"}. It checks that order as the rows arrive, so a server whose "C" order is not code point
 * order (a database encoding other than UTF8 or LATIN1) fails loudly instead of producing false differences.
 */
final class RowCursor implements AutoCloseable {
    static final int FETCH_ROWS = 1000;

    /** @param key {@code ROW(key columns)::text}, null for a keyless table; @param text {@code ROW(columns)::text} */
    record Row(String key, String text) {
        int compareTo(Row other) {
            int byKey = key == null ? 0 : RecordText.compare(key, other.key);
            return byKey != 0 ? byKey : RecordText.compare(text, other.text);
        }
    }

    private final ServerSession session;
    private final String table;
    private final boolean keyed;
    private final PreparedStatement query;
    private final ResultSet rows;
    private Row previous;
    private long count;

    private RowCursor(ServerSession session, String table, boolean keyed, PreparedStatement query, ResultSet rows) {
        this.session = session;
        this.table = table;
        this.keyed = keyed;
        this.query = query;
        this.rows = rows;
    }

    /**
     * @param columns the columns compared, in the primary's order (the same list on both sides)
     * @param key     the key columns, empty for a keyless table
     */
    static RowCursor open(ServerSession session, TableShape shape, List<String> columns, List<String> key) throws SQLException {
        String row = "ROW(" + Identifiers.columns(columns) + ")::pg_catalog.text COLLATE \"C\"";
        String sql = key.isEmpty()
                ? "SELECT " + row + " FROM " + shape.from() + " ORDER BY 1"
                : "SELECT ROW(" + Identifiers.columns(key) + ")::pg_catalog.text COLLATE \"C\", " + row + " FROM " + shape.from()
                        + " ORDER BY 1, 2";
        PreparedStatement query = null;
        try {
            query = session.connection().prepareStatement(sql);
            query.setFetchSize(FETCH_ROWS);
            return new RowCursor(session, shape.display(), !key.isEmpty(), query, query.executeQuery());
        } catch (SQLException e) {
            SQLException failure = session.failure("read the rows of table " + shape.display(), e);
            if (query != null) {
                try {
                    query.close();
                } catch (SQLException closeFailure) {
                    failure.addSuppressed(closeFailure);
                }
            }
            throw failure;
        }
    }

    /** @return the next row, or null after the last */
    Row next() throws SQLException {
        Row row;
        try {
            if (!rows.next()) {
                return null;
            }
            row = keyed ? new Row(rows.getString(1), rows.getString(2)) : new Row(null, rows.getString(1));
        } catch (SQLException e) {
            throw session.failure("read the rows of table " + table, e);
        }
        if (previous != null && previous.compareTo(row) > 0) {
            throw new SQLException(session.label() + ": the rows of table " + table + " did not arrive in code point order"
                    + " (is the database encoding UTF8?): " + previous + " before " + row);
        }
        previous = row;
        count++;
        return row;
    }

    /** @return the rows read so far */
    long count() {
        return count;
    }

    @Override
    public void close() throws SQLException {
        try {
            rows.close();
        } finally {
            query.close();
        }
    }
}
