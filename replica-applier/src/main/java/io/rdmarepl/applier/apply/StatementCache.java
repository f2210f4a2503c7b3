package io.rdmarepl.applier.apply;

import io.rdmarepl.applier.schema.SchemaMismatchException;
import io.rdmarepl.applier.schema.TableMapping;
import io.rdmarepl.format.OldTupleKind;
import io.rdmarepl.format.RecordKind;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * One prepared statement per (table, operation, old tuple kind, unchanged-TOAST column set, upsert or not),
 * kept for the life of the connection. A lookup that hits allocates nothing; tables rarely have more than a few shapes.
 */
final class StatementCache implements AutoCloseable {
    private final Map<TableMapping, List<Entry>> byTable = new IdentityHashMap<>();
    private Connection connection;

    void connection(Connection connection) {
        close();
        this.connection = connection;
    }

    BatchingStatement get(TableMapping mapping, RecordKind kind, OldTupleKind old, long[] newToast, long[] oldToast)
            throws SQLException, SchemaMismatchException {
        return get(mapping, kind, old, newToast, oldToast, false);
    }

    /** @param upsert for an INSERT: overwrite a row with the same replica key instead of failing on it */
    BatchingStatement get(TableMapping mapping, RecordKind kind, OldTupleKind old, long[] newToast, long[] oldToast,
                          boolean upsert) throws SQLException, SchemaMismatchException {
        List<Entry> entries = byTable.computeIfAbsent(mapping, m -> new ArrayList<>(4));
        for (int i = 0, n = entries.size(); i < n; i++) {
            Entry e = entries.get(i);
            if (e.kind == kind && e.old == old && e.upsert == upsert && Arrays.equals(e.newToast, newToast) && Arrays.equals(e.oldToast, oldToast)) {
                return e.statement;
            }
        }
        StatementShape shape = switch (kind) {
            case INSERT -> ShapeBuilder.insert(mapping, newToast, upsert);
            case UPDATE -> ShapeBuilder.update(mapping, old, newToast, oldToast);
            case DELETE -> ShapeBuilder.delete(mapping, old, oldToast);
            default -> throw new IllegalArgumentException(kind + " has no statement");
        };
        BatchingStatement statement = new BatchingStatement(connection, mapping, shape);
        entries.add(new Entry(kind, old, upsert, newToast.clone(), oldToast.clone(), statement));
        return statement;
    }

    int size() {
        return byTable.values().stream().mapToInt(List::size).sum();
    }

    /** Closes every statement (mappings changed, or the connection is gone). */
    @Override
    public void close() {
        byTable.values().forEach(list -> list.forEach(e -> e.statement.close()));
        byTable.clear();
    }

    private record Entry(RecordKind kind, OldTupleKind old, boolean upsert, long[] newToast, long[] oldToast, BatchingStatement statement) {
    }
}
