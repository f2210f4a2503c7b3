package io.rdmarepl.applier.apply;

import io.rdmarepl.applier.schema.TableMapping;
import io.rdmarepl.format.RecordKind;

/**
 * One SQL statement for one (table, operation, column set): which source columns it binds from the new
 * tuple ({@code values}: INSERT values or UPDATE SET list) and which from the tuple that finds the row
 * ({@code where}: the old key, the old row, or the key in the new row).
 *
 * @param whereFromOld  the where values come from the old tuple (else from the new one)
 * @param findsOneRow   an UPDATE or DELETE, whose affected-row count is checked
 * @param multiRow      the same UPDATE for many rows a statement, or null (only where rows of one key supersede
 *                      each other in a batch: found by key in the new tuple, {@link TableMapping#conflictKey()} set)
 * @param copy          the same INSERT as COPY, for many rows at once, or null (not an INSERT, or no column to write)
 */
record StatementShape(RecordKind kind, String table, String sql, int[] values, int[] where, boolean whereFromOld,
                      boolean findsOneRow, MultiRowUpdate multiRow, CopyInsert copy) {

    /** An UPDATE with nothing to set (only key columns, unchanged): nothing to run. */
    boolean isNoOp() {
        return kind == RecordKind.UPDATE && values.length == 0;
    }
}
