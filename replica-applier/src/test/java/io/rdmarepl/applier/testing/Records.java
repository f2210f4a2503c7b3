package io.rdmarepl.applier.testing;

import io.rdmarepl.format.OldTupleKind;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.format.record.Column;
import io.rdmarepl.format.record.Tuple;
import io.rdmarepl.format.record.Value;
import java.util.ArrayList;
import java.util.List;

/** Builds change records the way the shipper would send them. */
public final class Records {
    private Records() {
    }

    /**
     * A relation; a column spec is {@code name} or {@code name*} for a replica identity key column, optionally
     * followed by {@code :oid} for the source type (else 0, "unknown": the applier then orders every change of the
     * table, as for a type it cannot compare by bytes).
     */
    public static ChangeRecord.Relation relation(int id, String table, char identity, String... columns) {
        List<Column> list = new ArrayList<>();
        for (String column : columns) {
            int colon = column.indexOf(':');
            String spec = colon < 0 ? column : column.substring(0, colon);
            int oid = colon < 0 ? 0 : Integer.parseInt(column.substring(colon + 1));
            boolean key = spec.endsWith("*");
            String name = key ? spec.substring(0, spec.length() - 1) : spec;
            list.add(new Column(name, oid, oid == 0 ? "unknown" : "oid " + oid, -1, key));
        }
        return new ChangeRecord.Relation(id, "public", table, identity, list);
    }

    public static List<ChangeRecord> transaction(long txId, long commitLsn, List<? extends ChangeRecord> rows) {
        long timeUs = System.currentTimeMillis() * 1000;
        List<ChangeRecord> out = new ArrayList<>();
        out.add(new ChangeRecord.Begin(txId, commitLsn, timeUs));
        out.addAll(rows);
        out.add(new ChangeRecord.Commit(txId, commitLsn, commitLsn + 8, timeUs));
        return out;
    }

    /** A sequence's state in schema public, read {@code ageMs} milliseconds ago. */
    public static ChangeRecord.Sequence sequence(String name, long lastValue, boolean isCalled, long ageMs) {
        return new ChangeRecord.Sequence("public", name, lastValue, isCalled, (System.currentTimeMillis() - ageMs) * 1000);
    }

    public static ChangeRecord.Insert insert(int relation, Value... values) {
        return new ChangeRecord.Insert(relation, Tuple.of(values));
    }

    public static ChangeRecord.Update update(int relation, Value... values) {
        return new ChangeRecord.Update(relation, OldTupleKind.NONE, null, Tuple.of(values));
    }

    public static ChangeRecord.Update updateKey(int relation, Tuple oldKey, Value... values) {
        return new ChangeRecord.Update(relation, OldTupleKind.KEY, oldKey, Tuple.of(values));
    }

    public static ChangeRecord.Update updateFull(int relation, Tuple oldRow, Value... values) {
        return new ChangeRecord.Update(relation, OldTupleKind.FULL, oldRow, Tuple.of(values));
    }

    public static ChangeRecord.Delete deleteKey(int relation, Value... key) {
        return new ChangeRecord.Delete(relation, OldTupleKind.KEY, Tuple.of(key));
    }

    public static ChangeRecord.Delete deleteFull(int relation, Value... row) {
        return new ChangeRecord.Delete(relation, OldTupleKind.FULL, Tuple.of(row));
    }

    public static Value i4(int v) {
        return new Value.Int4(v);
    }

    public static Value i8(long v) {
        return new Value.Int8(v);
    }

    public static Value text(String v) {
        return new Value.Text(v);
    }

    public static Value nul() {
        return Value.NULL;
    }

    public static Value toast() {
        return Value.UNCHANGED_TOAST;
    }
}
