package io.rdmarepl.applier.apply;

import io.rdmarepl.applier.schema.SqlNames;
import io.rdmarepl.applier.schema.TableMapping;

/**
 * An UPDATE shape as one statement for many rows at once, for a batch that holds each row at most once (rows of one
 * key supersede each other: {@link BatchingStatement#supersede}):
 * <pre>
 * UPDATE t AS rdmarepl_target SET "a" = rdmarepl_rows.v1, ...
 *   FROM (VALUES (?::type_a, ..., ?::type_key), ...) AS rdmarepl_rows (v1, ..., w1)
 *  WHERE rdmarepl_target."key" = rdmarepl_rows.w1 AND ...
 * </pre>
 * The statement comes in size classes of {@link #MIN_ROWS}, twice that, and so on up to {@link #maxRows()}: a batch
 * goes in statements of the smallest class that holds it, or of the largest, whose last statement repeats its last
 * row to fill it (the same row twice with the same values updates it once, and the update count counts it once): a
 * batch that fits one statement is at most doubled, a larger one pads only its last statement. One executor run per statement instead of one per row: measured with pgbench's pipeline on a
 * 1 M-row table, 8 rows as single-row statements 0.225 ms, as one statement of 8 0.170 ms, padded to 64 0.306 ms;
 * 4 rows 0.125–0.161 against 0.119–0.145 ms; 12 rows in a statement of 16, 0.26–0.29 against 0.34–0.39 ms.
 * {@link #findSql} looks one row up by its key, to name a row the update did not find.
 */
final class MultiRowUpdate {
    /** At most this many rows a statement, and never more parameters than the protocol's 65,535. */
    static final int MAX_ROWS = 64;
    /** Fewer live rows than this go as single-row statements; the smallest size class. */
    static final int MIN_ROWS = 4;

    private final String[] sqlBySizeClass;
    private final String findSql;
    private final int perRow;

    private MultiRowUpdate(String[] sqlBySizeClass, String findSql, int perRow) {
        this.sqlBySizeClass = sqlBySizeClass;
        this.findSql = findSql;
        this.perRow = perRow;
    }

    /** The shape's multi-row form, or null where even {@link #MIN_ROWS} rows would pass the parameter limit. */
    static MultiRowUpdate of(TableMapping m, int[] values, int[] where, String[] castTypes) {
        int perRow = values.length + where.length;
        int maxRows = Math.min(MAX_ROWS, 32_000 / perRow);
        if (maxRows < MIN_ROWS) {
            return null;
        }
        int classes = 32 - Integer.numberOfLeadingZeros(maxRows / MIN_ROWS);
        String[] sql = new String[classes];
        for (int c = 0; c < classes; c++) {
            sql[c] = sql(m, values, where, castTypes, MIN_ROWS << c);
        }
        StringBuilder find = new StringBuilder("SELECT 1 FROM ").append(m.qualifiedName()).append(" WHERE ");
        for (int k = 0; k < where.length; k++) {
            find.append(k == 0 ? "" : " AND ").append(SqlNames.quote(m.columnName(where[k]))).append(" = ?::")
                    .append(castTypes[values.length + k]);
        }
        return new MultiRowUpdate(sql, find.toString(), perRow);
    }

    private static String sql(TableMapping m, int[] values, int[] where, String[] castTypes, int rows) {
        int perRow = values.length + where.length;
        StringBuilder sql = new StringBuilder("UPDATE ").append(m.qualifiedName()).append(" AS rdmarepl_target SET ");
        for (int k = 0; k < values.length; k++) {
            sql.append(k == 0 ? "" : ", ").append(SqlNames.quote(m.columnName(values[k]))).append(" = rdmarepl_rows.v")
                    .append(k + 1);
        }
        sql.append(" FROM (VALUES ");
        for (int r = 0; r < rows; r++) {
            sql.append(r == 0 ? "(" : ", (");
            for (int p = 0; p < perRow; p++) {
                sql.append(p == 0 ? "?::" : ", ?::").append(castTypes[p]);
            }
            sql.append(')');
        }
        sql.append(") AS rdmarepl_rows (");
        for (int k = 0; k < values.length; k++) {
            sql.append("v").append(k + 1).append(", ");
        }
        for (int k = 0; k < where.length; k++) {
            sql.append(k == 0 ? "w" : ", w").append(k + 1);
        }
        sql.append(") WHERE ");
        for (int k = 0; k < where.length; k++) {
            sql.append(k == 0 ? "" : " AND ").append("rdmarepl_target.").append(SqlNames.quote(m.columnName(where[k])))
                    .append(" = rdmarepl_rows.w").append(k + 1);
        }
        return sql.toString();
    }

    /** Size classes: class {@code c} holds {@code MIN_ROWS << c} rows. */
    int sizeClasses() {
        return sqlBySizeClass.length;
    }

    /** The size class the statements of a batch of {@code rows} live rows use: the smallest holding them, else the largest. */
    int sizeClassFor(int rows) {
        int c = 0;
        while (c < sqlBySizeClass.length - 1 && (MIN_ROWS << c) < rows) {
            c++;
        }
        return c;
    }

    /** Rows a statement of size class {@code sizeClass} holds. */
    static int rows(int sizeClass) {
        return MIN_ROWS << sizeClass;
    }

    /** The largest statement's rows. */
    int maxRows() {
        return rows(sqlBySizeClass.length - 1);
    }

    String sql(int sizeClass) {
        return sqlBySizeClass[sizeClass];
    }

    String findSql() {
        return findSql;
    }

    /** Parameters per row: the shape's values, then its where columns (the single-row order). */
    int perRow() {
        return perRow;
    }
}
