package io.rdmarepl.shipper.encode;

import io.rdmarepl.shipper.capture.ChangeEncoding;
import io.rdmarepl.format.OldTupleKind;
import io.rdmarepl.format.codec.RecordEncoder;
import io.rdmarepl.format.codec.RowWriter;
import java.nio.ByteBuffer;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Encodes Debezium data-change records ({@link SourceRecordKind#CHANGE}) into log-format row records, every
 * value exact as far as Debezium delivers it (see {@link ValueEncoder} for the per-type table).
 *
 * <ul>
 *   <li>{@code c} and {@code r} (snapshot read) → Insert of {@code after}.</li>
 *   <li>A primary-key change, which Debezium splits into {@code d} (header {@code __debezium.newkey}) then
 *       {@code c} (header {@code __debezium.oldkey}): the {@code d} half encodes to nothing ({@link #encode}
 *       returns 0: ship nothing, but it still counts for offsets) and the {@code c} half to one Update whose old
 *       tuple is KEY (all columns, non-key NULL) or FULL (REPLICA IDENTITY FULL).</li>
 *   <li>{@code u} → Update. {@code before} absent (REPLICA IDENTITY DEFAULT/INDEX and the key unchanged) → old
 *       tuple NONE; present → FULL when the table is REPLICA IDENTITY FULL (complete old row), else KEY (the key
 *       changed: all columns, the non-key ones NULL, as pgoutput sends it).</li>
 *   <li>{@code d} → Delete of {@code before}, FULL or KEY likewise.</li>
 *   <li>{@code t} → Truncate of this one table (Debezium emits one event per truncated table and does not pass on
 *       CASCADE / RESTART IDENTITY, so both flags are false).</li>
 * </ul>
 *
 * Columns are written in the relation's attribute order, found by name in Debezium's struct. The relation of a
 * record is found by the identity of Debezium's row schema object: a new schema object (engine start, new
 * pgoutput Relation message after DDL) makes the {@link RelationCatalog} re-read the table, and the relation's
 * version changes if the columns did. The pipeline must send {@link #relationOf(SourceRecord)}'s Relation record
 * before the row whenever that (id, version) has not been sent on the stream.
 *
 * <p>One instance per encoding thread; not thread-safe. Beyond what Debezium allocates, encoding a row
 * allocates only for long numerics, floats in arrays and non-UTC timestamptz text.
 */
public final class ChangeEventEncoder implements ChangeEncoding {
    /** A row schema object bound to its relation: the struct field of each relation column. */
    private record Binding(RelationInfo relation, Field[] fields) {
    }

    private final RelationCatalog catalog;
    private final RecordEncoder encoder = new RecordEncoder();
    private final ValueEncoder values = new ValueEncoder();
    private final Map<Schema, Binding> bindings = new IdentityHashMap<>();
    private final int[] truncateIds = new int[1];
    private Struct keyChangeBefore;
    private int keyChangeRelation;

    private static final String PK_UPDATE_OLDKEY = "__debezium.oldkey";
    private static final String PK_UPDATE_NEWKEY = "__debezium.newkey";

    public ChangeEventEncoder(RelationCatalog catalog) {
        this.catalog = catalog;
    }

    /** The relation (id, version, Relation record) the row record of {@code record} refers to. */
    public RelationInfo relationOf(SourceRecord record) {
        return binding(envelope(record)).relation();
    }

    /** Relation id of {@code record}'s table (its pg_class OID). */
    public int relationId(SourceRecord record) {
        return relationOf(record).id();
    }

    /** Version of {@code record}'s relation; changes when the column list changes. */
    public int relationVersion(SourceRecord record) {
        return relationOf(record).version();
    }

    /** Encodes the Relation record of {@code record}'s table; returns its length. */
    public int encodeRelation(SourceRecord record, ByteBuffer out, int offset, int maxLength) {
        return relationOf(record).encodeRelation(out, offset, maxLength);
    }

    @Override
    public RelationInfo currentRelation(String schema, String table) {
        return catalog.current(schema, table);
    }

    /** Same as {@link #encode}. */
    public int encodeRow(SourceRecord record, ByteBuffer out, int offset, int maxLength) {
        return encode(record, out, offset, maxLength);
    }

    /**
     * Encodes the Insert, Update, Delete or Truncate record of a data-change {@code record} into
     * {@code out[offset, offset + maxLength)}; returns its length, or 0 for the Delete half of a primary-key
     * change (nothing to ship). Call it for every data-change record, in order.
     *
     * @throws io.rdmarepl.format.RecordCapacityException if it does not fit: retry with a larger region
     * @throws IllegalArgumentException if {@code record} is not a data change
     */
    public int encode(SourceRecord record, ByteBuffer out, int offset, int maxLength) {
        Struct envelope = envelope(record);
        Binding binding = binding(envelope);
        RelationInfo relation = binding.relation();
        String op = envelope.getString("op");
        switch (op) {
            case "c", "r" -> {
                if (record.headers().lastWithName(PK_UPDATE_OLDKEY) != null) {
                    return encodeKeyChange(record, binding, envelope, out, offset, maxLength);
                }
                RowWriter w = encoder.startInsert(out, offset, maxLength, relation.id());
                putTuple(w, binding, envelope.getStruct("after"), false);
                return w.finish();
            }
            case "u" -> {
                Struct before = envelope.getStruct("before");
                OldTupleKind old = before == null ? OldTupleKind.NONE : oldKind(relation);
                RowWriter w = encoder.startUpdate(out, offset, maxLength, relation.id(), old);
                if (before != null) {
                    putTuple(w, binding, before, true);
                    w.startNewTuple();
                }
                putTuple(w, binding, envelope.getStruct("after"), true);
                return w.finish();
            }
            case "d" -> {
                Struct before = envelope.getStruct("before");
                if (record.headers().lastWithName(PK_UPDATE_NEWKEY) != null) {
                    keyChangeBefore = before;
                    keyChangeRelation = relation.id();
                    return 0;
                }
                if (before == null) {
                    throw new IllegalStateException("Delete on " + relation.schema() + "." + relation.table()
                        + " has no old key or row (REPLICA IDENTITY NOTHING?): the applier cannot find the row");
                }
                RowWriter w = encoder.startDelete(out, offset, maxLength, relation.id(), oldKind(relation));
                putTuple(w, binding, before, true);
                return w.finish();
            }
            case "t" -> {
                truncateIds[0] = relation.id();
                return encoder.encodeTruncate(out, offset, maxLength, false, false, truncateIds, 1);
            }
            default -> throw new IllegalArgumentException("unknown Debezium operation '" + op + "' on "
                + relation.schema() + "." + relation.table());
        }
    }

    /**
     * Debezium splits an Update that changes the primary key into a Delete (header __debezium.newkey) and a
     * Create (header __debezium.oldkey) with the same offset; this joins them back into one Update whose old
     * tuple is the Delete's {@code before} (the key, or the full row under REPLICA IDENTITY FULL).
     */
    private int encodeKeyChange(SourceRecord record, Binding binding, Struct envelope, ByteBuffer out, int offset,
                                int maxLength) {
        RelationInfo relation = binding.relation();
        Struct before = keyChangeBefore != null && keyChangeRelation == relation.id() ? keyChangeBefore : null;
        OldTupleKind old = oldKind(relation);
        RowWriter w = encoder.startUpdate(out, offset, maxLength, relation.id(), old);
        if (before != null) {
            putTuple(w, binding, before, true);
        } else {
            Struct oldKey = (Struct) record.headers().lastWithName(PK_UPDATE_OLDKEY).value();
            List<ColumnInfo> columns = relation.columns();
            for (ColumnInfo column : columns) {
                Field keyField = oldKey.schema().field(column.name());
                values.put(w, column, keyField == null ? null : oldKey.get(keyField), false);
            }
        }
        w.startNewTuple();
        putTuple(w, binding, envelope.getStruct("after"), true);
        int length = w.finish();
        keyChangeBefore = null;
        return length;
    }

    private static OldTupleKind oldKind(RelationInfo relation) {
        return relation.replicaIdentity() == 'f' ? OldTupleKind.FULL : OldTupleKind.KEY;
    }

    private void putTuple(RowWriter w, Binding binding, Struct row, boolean toastPossible) {
        List<ColumnInfo> columns = binding.relation().columns();
        Field[] fields = binding.fields();
        for (int i = 0; i < fields.length; i++) {
            values.put(w, columns.get(i), row.get(fields[i]), toastPossible);
        }
    }

    private static Struct envelope(SourceRecord record) {
        if (!(record.value() instanceof Struct envelope) || envelope.schema().field("op") == null) {
            throw new IllegalArgumentException("not a Debezium data-change record: " + record.topic()
                + " (classify with SourceRecordKind first)");
        }
        return envelope;
    }

    private Binding binding(Struct envelope) {
        Schema rowSchema = envelope.schema().field("after").schema();
        Binding binding = bindings.get(rowSchema);
        if (binding != null) {
            return binding;
        }
        Struct source = envelope.getStruct("source");
        String schema = source.getString("schema");
        String table = source.getString("table");
        Set<String> names = new LinkedHashSet<>();
        for (Field f : rowSchema.fields()) {
            names.add(f.name());
        }
        RelationInfo relation = catalog.relationFor(schema, table, names, name -> {
            Field f = rowSchema.field(name);
            Map<String, String> parameters = f == null ? null : f.schema().parameters();
            return parameters == null ? null : parameters.get("__debezium.source.column.type");
        });
        Field[] fields = new Field[relation.columns().size()];
        for (int i = 0; i < fields.length; i++) {
            fields[i] = rowSchema.field(relation.columns().get(i).name());
        }
        binding = new Binding(relation, fields);
        if (bindings.size() > 10_000) {
            bindings.clear();
        }
        bindings.put(rowSchema, binding);
        return binding;
    }
}
