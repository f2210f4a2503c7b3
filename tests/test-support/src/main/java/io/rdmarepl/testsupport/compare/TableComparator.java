package io.rdmarepl.testsupport.compare;

import io.rdmarepl.testsupport.compare.Difference.Kind;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One table, primary against replica. Columns are bound by name: every column of the primary's table (generated
 * ones too) in the primary's order, read from the replica's column of the same name wherever it sits there. Fast
 * path: row count and an md5 over the md5 of each row text, sorted, computed by each server. Only when those
 * differ (or cannot be trusted: the database encodings differ) are both sides streamed and merged
 * ({@link RowMerge}).
 */
final class TableComparator {
    private TableComparator() {
    }

    /**
     * @param fastPath whether the servers' fingerprints may be compared (same database encoding)
     */
    static TableResult compare(ServerSession primary, ServerSession replica, Catalog.Name table, boolean fastPath,
                               DifferenceLog log) throws SQLException {
        TableShape p = Catalog.shape(primary, table).orElseThrow(
                () -> new SQLException(primary.label() + ": table " + table.display() + " is gone"));
        String name = p.display();
        TableShape r = Catalog.shape(replica, table).orElse(null);
        if (r == null) {
            log.add(new Difference(Kind.TABLE_MISSING, name, null, null, null, null));
            return new TableResult(name, fingerprint(primary, p, List.copyOf(p.columns().keySet())).rows(), -1, log.count(), List.of());
        }
        List<String> columns = new ArrayList<>();
        for (Map.Entry<String, String> column : p.columns().entrySet()) {
            String replicaType = r.columns().get(column.getKey());
            if (replicaType == null) {
                log.add(new Difference(Kind.COLUMN_MISSING, name, null, column.getKey(), column.getValue(), null));
            } else {
                columns.add(column.getKey());
                if (!replicaType.equals(column.getValue())) {
                    log.add(new Difference(Kind.COLUMN_TYPE_DIFFERS, name, null, column.getKey(), column.getValue(), replicaType));
                }
            }
        }
        List<String> replicaOnly = r.columns().keySet().stream().filter(c -> !p.columns().containsKey(c)).toList();
        List<String> key = columns.containsAll(p.key()) ? p.key() : List.of();

        Fingerprint fp = fingerprint(primary, p, columns);
        Fingerprint fr = fingerprint(replica, r, columns);
        if (fastPath && fp.equals(fr)) {
            return new TableResult(name, fp.rows(), fr.rows(), log.count(), replicaOnly);
        }
        try (RowCursor pc = RowCursor.open(primary, p, columns, key); RowCursor rc = RowCursor.open(replica, r, columns, key)) {
            RowMerge.merge(pc, rc, name, columns, key, log);
            return new TableResult(name, pc.count(), rc.count(), log.count(), replicaOnly);
        }
    }

    /** @param md5 null for an empty table */
    private record Fingerprint(long rows, String md5) {
    }

    /**
     * Count and md5 of the sorted md5s of the row texts. The md5 of each row keeps rows apart (no separator a
     * row could contain) and keeps the aggregate at 32 bytes a row.
     */
    private static Fingerprint fingerprint(ServerSession session, TableShape shape, List<String> columns) throws SQLException {
        String sql = "SELECT pg_catalog.count(*), pg_catalog.md5(pg_catalog.string_agg(h, '' ORDER BY h COLLATE \"C\"))"
                + " FROM (SELECT pg_catalog.md5(ROW(" + Identifiers.columns(columns) + ")::pg_catalog.text) AS h FROM "
                + shape.from() + ") AS r";
        try (PreparedStatement query = session.connection().prepareStatement(sql); ResultSet rs = query.executeQuery()) {
            rs.next();
            return new Fingerprint(rs.getLong(1), rs.getString(2));
        } catch (SQLException e) {
            throw session.failure("read the row count and checksum of table " + shape.display(), e);
        }
    }
}
