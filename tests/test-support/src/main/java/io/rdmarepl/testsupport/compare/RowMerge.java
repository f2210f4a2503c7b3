package io.rdmarepl.testsupport.compare;

import io.rdmarepl.testsupport.compare.Difference.Kind;
import io.rdmarepl.testsupport.compare.RowCursor.Row;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A sorted merge of both sides' rows, which is EXCEPT ALL both ways: rows are multisets, so each missing or
 * extra copy of a duplicated row counts. Rows arrive ordered by key text, then row text, so the rows missing on
 * the replica and those extra on it that share a key come one after another: the merge pairs them and reports each
 * column that differs, under the key, instead of one row missing and one extra. Memory: one row per side, and
 * the unpaired rows of the current key (at most {@value #PAIRING_ROWS}, more only when the replica holds that many
 * copies of one key).
 */
final class RowMerge {
    static final int PAIRING_ROWS = 1000;

    private final String table;
    private final List<String> columns;
    private final List<String> key;
    private final DifferenceLog log;
    private final List<Row> missing = new ArrayList<>();
    private final List<Row> extra = new ArrayList<>();
    private String pendingKey;

    private RowMerge(String table, List<String> columns, List<String> key, DifferenceLog log) {
        this.table = table;
        this.columns = columns;
        this.key = key;
        this.log = log;
    }

    /**
     * @param columns the columns in both cursors' row texts, in order
     * @param key     the key columns in the cursors' key texts, empty for a keyless table
     */
    static void merge(RowCursor primary, RowCursor replica, String table, List<String> columns, List<String> key,
                      DifferenceLog log) throws SQLException {
        RowMerge merge = new RowMerge(table, columns, key, log);
        Row p = primary.next();
        Row r = replica.next();
        while (p != null || r != null) {
            int order = p == null ? 1 : r == null ? -1 : p.compareTo(r);
            if (order == 0) {
                p = primary.next();
                r = replica.next();
            } else if (order < 0) {
                merge.unmatched(p, merge.missing);
                p = primary.next();
            } else {
                merge.unmatched(r, merge.extra);
                r = replica.next();
            }
        }
        merge.flush();
    }

    private void unmatched(Row row, List<Row> side) {
        if (key.isEmpty()) {
            log.add(side == missing
                    ? new Difference(Kind.ROW_MISSING, table, null, null, row.text(), null)
                    : new Difference(Kind.ROW_EXTRA, table, null, null, null, row.text()));
            return;
        }
        if (!row.key().equals(pendingKey)) {
            flush();
            pendingKey = row.key();
        }
        side.add(row);
        if (side.size() >= PAIRING_ROWS) {
            flush();
        }
    }

    /** Pairs the current key's missing and extra rows: column differences; what is left is missing or extra. */
    private void flush() {
        int pairs = Math.min(missing.size(), extra.size());
        for (int i = 0; i < pairs; i++) {
            compareColumns(missing.get(i), extra.get(i));
        }
        for (Row row : missing.subList(pairs, missing.size())) {
            log.add(new Difference(Kind.ROW_MISSING, table, keyText(row.key()), null, row.text(), null));
        }
        for (Row row : extra.subList(pairs, extra.size())) {
            log.add(new Difference(Kind.ROW_EXTRA, table, keyText(row.key()), null, null, row.text()));
        }
        missing.clear();
        extra.clear();
    }

    private void compareColumns(Row primary, Row replica) {
        List<String> p = RecordText.fields(primary.text(), columns.size());
        List<String> r = RecordText.fields(replica.text(), columns.size());
        String at = keyText(primary.key());
        boolean found = false;
        for (int i = 0; i < columns.size(); i++) {
            if (!Objects.equals(p.get(i), r.get(i))) {
                log.add(new Difference(Kind.COLUMN_DIFFERS, table, at, columns.get(i), p.get(i), r.get(i)));
                found = true;
            }
        }
        if (!found) {
            // cannot happen: equal fields make equal record texts; never let a difference vanish all the same
            log.add(new Difference(Kind.ROW_MISSING, table, at, null, primary.text(), null));
            log.add(new Difference(Kind.ROW_EXTRA, table, at, null, null, replica.text()));
        }
    }

    /** @return {@code (id)=(7)}, {@code (a, b)=(1, x)}: as PostgreSQL names a key in its messages */
    private String keyText(String record) {
        List<String> values = RecordText.fields(record, key.size());
        StringBuilder names = new StringBuilder("(");
        StringBuilder shown = new StringBuilder("(");
        for (int i = 0; i < key.size(); i++) {
            names.append(i == 0 ? "" : ", ").append(Identifiers.readable(key.get(i)));
            shown.append(i == 0 ? "" : ", ").append(values.get(i) == null ? "NULL" : values.get(i));
        }
        return names.append(")=").append(shown).append(')').toString();
    }
}
