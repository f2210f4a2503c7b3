package io.rdmarepl.applier.apply;

import io.rdmarepl.applier.schema.ReplicaColumn;
import io.rdmarepl.applier.schema.SchemaMismatchException;
import io.rdmarepl.applier.schema.SqlNames;
import io.rdmarepl.applier.schema.TableMapping;
import io.rdmarepl.format.OldTupleKind;
import io.rdmarepl.format.RecordKind;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the SQL of a {@link StatementShape}. Every identifier is quoted and every value cast to the
 * replica column's type. Rules:
 * <ul>
 *   <li>INSERT lists every written column except unchanged TOAST; OVERRIDING SYSTEM VALUE when the table has
 *       an identity ALWAYS column. When asked for an upsert and the replica has a primary key it is
 *       {@code ON CONFLICT (pk) DO UPDATE}: chunks of an initial copy may meet rows an interrupted copy already
 *       wrote, and the later copy wins. Otherwise a row that is already there fails the INSERT: the replica
 *       differs.</li>
 *   <li>UPDATE sets every written column except unchanged TOAST, identity ALWAYS columns that are not a changed
 *       key, and the key it finds the row by when the key did not change.</li>
 *   <li>A row is found by the old key, else by the replica's primary key, else (keyless REPLICA IDENTITY FULL) by
 *       the whole old row, NULL-safe ({@code IS NOT DISTINCT FROM}, compared as text so types without an equality
 *       operator work), exactly one row through its ctid (and tableoid when partitioned).</li>
 * </ul>
 */
final class ShapeBuilder {
    private ShapeBuilder() {
    }

    static StatementShape insert(TableMapping m, long[] newToast, boolean upsert) {
        int[] columns = columns(m, newToast);
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(m.qualifiedName()).append(" (");
        names(m, columns, sql).append(')');
        if (m.overridingSystemValue()) {
            sql.append(" OVERRIDING SYSTEM VALUE");
        }
        sql.append(" VALUES (");
        for (int k = 0; k < columns.length; k++) {
            sql.append(k == 0 ? "" : ", ");
            placeholder(m, columns[k], sql);
        }
        sql.append(')');
        int[] pk = m.replicaKey();
        if (upsert && pk != null) {
            sql.append(" ON CONFLICT (");
            names(m, pk, sql).append(')');
            List<Integer> set = new ArrayList<>();
            for (int c : columns) {
                if (!contains(pk, c) && !m.column(c).identityAlways()) {
                    set.add(c);
                }
            }
            if (set.isEmpty()) {
                sql.append(" DO NOTHING");
            } else {
                sql.append(" DO UPDATE SET ");
                for (int k = 0; k < set.size(); k++) {
                    String name = SqlNames.quote(m.columnName(set.get(k)));
                    sql.append(k == 0 ? "" : ", ").append(name).append(" = EXCLUDED.").append(name);
                }
            }
        }
        CopyInsert copy = null;
        if (columns.length > 0) {
            StringBuilder copySql = new StringBuilder("COPY ").append(m.qualifiedName()).append(" (");
            copy = new CopyInsert(names(m, columns, copySql).append(") FROM STDIN").toString(), upsert && pk != null);
        }
        return new StatementShape(RecordKind.INSERT, m.qualifiedName(), sql.toString(), columns, new int[0], false, false,
                null, copy);
    }

    static StatementShape update(TableMapping m, OldTupleKind old, long[] newToast, long[] oldToast)
            throws SchemaMismatchException {
        Finder finder = finder(m, old, oldToast);
        boolean keyChanged = old == OldTupleKind.KEY;
        List<Integer> set = new ArrayList<>();
        for (int c : columns(m, newToast)) {
            boolean findsBy = contains(finder.columns, c) && !finder.fromOld;
            boolean identityLocked = m.column(c).identityAlways() && !(keyChanged && m.isSourceKey(c));
            if (!findsBy && !identityLocked) {
                set.add(c);
            }
        }
        int[] values = set.stream().mapToInt(Integer::intValue).toArray();
        StringBuilder sql = new StringBuilder("UPDATE ").append(m.qualifiedName()).append(" SET ");
        for (int k = 0; k < values.length; k++) {
            sql.append(k == 0 ? "" : ", ").append(SqlNames.quote(m.columnName(values[k]))).append(" = ");
            placeholder(m, values[k], sql);
        }
        where(m, finder, sql);
        MultiRowUpdate multiRow = null;
        if (!finder.fromOld && !finder.fullRow && values.length > 0 && m.conflictKey() != null) {
            String[] types = new String[values.length + finder.columns.length];
            for (int k = 0; k < types.length; k++) {
                types[k] = m.column(k < values.length ? values[k] : finder.columns[k - values.length]).castType();
            }
            multiRow = MultiRowUpdate.of(m, values, finder.columns, types);
        }
        return new StatementShape(RecordKind.UPDATE, m.qualifiedName(), sql.toString(), values, finder.columns,
                finder.fromOld, true, multiRow, null);
    }

    static StatementShape delete(TableMapping m, OldTupleKind old, long[] oldToast) throws SchemaMismatchException {
        Finder finder = finder(m, old, oldToast);
        StringBuilder sql = new StringBuilder("DELETE FROM ").append(m.qualifiedName());
        where(m, finder, sql);
        return new StatementShape(RecordKind.DELETE, m.qualifiedName(), sql.toString(), new int[0], finder.columns,
                finder.fromOld, true, null, null);
    }

    /** How a row is found: by key columns ({@code =}) or by the whole row ({@code fullRow}). */
    private record Finder(int[] columns, boolean fromOld, boolean fullRow) {
    }

    private static Finder finder(TableMapping m, OldTupleKind old, long[] oldToast) throws SchemaMismatchException {
        int[] sourceKey = m.sourceKey();
        int[] replicaKey = m.replicaKey();
        switch (old) {
            case KEY:
                if (sourceKey.length == 0) {
                    throw noKey(m);
                }
                return new Finder(sourceKey, true, false);
            case FULL:
                if (replicaKey != null && noneIn(replicaKey, oldToast)) {
                    return new Finder(replicaKey, true, false);
                }
                return new Finder(columns(m, oldToast), true, true);
            default:
                if (sourceKey.length > 0) {
                    return new Finder(sourceKey, false, false);
                }
                if (replicaKey != null) {
                    return new Finder(replicaKey, false, false);
                }
                throw noKey(m);
        }
    }

    private static SchemaMismatchException noKey(TableMapping m) {
        return new SchemaMismatchException(m.qualifiedName(), null, "no key to find rows of " + m.qualifiedName()
                + " by: the source sent no old row and neither side has a replica identity or primary key");
    }

    private static void where(TableMapping m, Finder finder, StringBuilder sql) {
        if (!finder.fullRow) {
            sql.append(" WHERE ");
            for (int k = 0; k < finder.columns.length; k++) {
                int c = finder.columns[k];
                sql.append(k == 0 ? "" : " AND ").append(SqlNames.quote(m.columnName(c))).append(" = ");
                placeholder(m, c, sql);
            }
            return;
        }
        String rowId = m.replica().partitioned() ? "(tableoid, ctid)" : "ctid";
        String selected = m.replica().partitioned() ? "tableoid, ctid" : "ctid";
        sql.append(" WHERE ").append(rowId).append(" = (SELECT ").append(selected).append(" FROM ")
                .append(m.qualifiedName()).append(" WHERE ");
        for (int k = 0; k < finder.columns.length; k++) {
            int c = finder.columns[k];
            sql.append(k == 0 ? "" : " AND ").append(SqlNames.quote(m.columnName(c)))
                    .append("::text IS NOT DISTINCT FROM (");
            placeholder(m, c, sql);
            sql.append(")::text");
        }
        sql.append(" LIMIT 1)");
    }

    /** Written columns (replica-generated ones left out) not marked in {@code toast}. */
    private static int[] columns(TableMapping m, long[] toast) {
        List<Integer> out = new ArrayList<>();
        for (int c = 0; c < m.columnCount(); c++) {
            if (m.writes(c) && !ShapeKey.isSet(toast, c)) {
                out.add(c);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private static boolean noneIn(int[] columns, long[] toast) {
        for (int c : columns) {
            if (ShapeKey.isSet(toast, c)) {
                return false;
            }
        }
        return true;
    }

    private static StringBuilder names(TableMapping m, int[] columns, StringBuilder sql) {
        for (int k = 0; k < columns.length; k++) {
            sql.append(k == 0 ? "" : ", ").append(SqlNames.quote(m.columnName(columns[k])));
        }
        return sql;
    }

    private static void placeholder(TableMapping m, int column, StringBuilder sql) {
        ReplicaColumn target = m.column(column);
        sql.append("?::").append(target.castType());
    }

    private static boolean contains(int[] values, int value) {
        for (int v : values) {
            if (v == value) {
                return true;
            }
        }
        return false;
    }
}
