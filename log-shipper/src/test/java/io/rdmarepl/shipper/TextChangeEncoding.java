package io.rdmarepl.shipper;

import io.rdmarepl.format.OldTupleKind;
import io.rdmarepl.format.codec.RecordEncoder;
import io.rdmarepl.format.codec.RelationWriter;
import io.rdmarepl.format.codec.RowWriter;
import io.rdmarepl.shipper.capture.ChangeEncoding;
import io.rdmarepl.shipper.capture.TableRelation;
import java.nio.ByteBuffer;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * A deliberately plain encoding for the pipeline tests: every column as text, keyed on the first
 * column. The pipeline (transactions, order, acknowledgements, back-pressure) is under test here;
 * value fidelity is tested with the real encoder.
 */
final class TextChangeEncoding implements ChangeEncoding {
    private final RecordEncoder encoder = new RecordEncoder();

    @Override
    public int relationId(SourceRecord record) {
        return record.topic().hashCode() & Integer.MAX_VALUE;
    }

    @Override
    public int relationVersion(SourceRecord record) {
        return rowSchema(record).fields().size();
    }

    @Override
    public int encodeRelation(SourceRecord record, ByteBuffer out, int offset, int maxLength) {
        String[] parts = record.topic().split("\\.");
        RelationWriter writer = encoder.startRelation(out, offset, maxLength, relationId(record), parts[1], parts[2], 'd');
        boolean first = true;
        for (Field field : rowSchema(record).fields()) {
            writer.putColumn(field.name(), 25, "text", -1, first);
            first = false;
        }
        return writer.finish();
    }

    @Override
    public TableRelation currentRelation(String schema, String table) {
        int id = ("rdmarepl." + schema + "." + table).hashCode() & Integer.MAX_VALUE; // the id a row's topic gets
        return new TableRelation() {
            @Override
            public int id() {
                return id;
            }

            @Override
            public int version() {
                return -1; // unknown here: the first row sends its own Relation
            }

            @Override
            public int encodeRelation(ByteBuffer out, int offset, int maxLength) {
                return encoder.startRelation(out, offset, maxLength, id, schema, table, 'd').finish();
            }
        };
    }

    @Override
    public int encodeRow(SourceRecord record, ByteBuffer out, int offset, int maxLength) {
        Struct value = (Struct) record.value();
        String op = value.getString("op");
        if (op.equals("t")) { // one table, no flags: what Debezium hands over, as the real encoder writes it
            return encoder.encodeTruncate(out, offset, maxLength, false, false, new int[] {relationId(record)}, 1);
        }
        Struct before = value.getStruct("before");
        Struct after = value.getStruct("after");
        RowWriter row = switch (op) {
            case "c", "r" -> encoder.startInsert(out, offset, maxLength, relationId(record));
            case "u" -> encoder.startUpdate(out, offset, maxLength, relationId(record), before == null ? OldTupleKind.NONE : OldTupleKind.KEY);
            case "d" -> encoder.startDelete(out, offset, maxLength, relationId(record), OldTupleKind.KEY);
            default -> throw new IllegalArgumentException("op " + op);
        };
        if (op.equals("d") || op.equals("u") && before != null) {
            putAll(row, before);
            if (op.equals("d")) {
                return row.finish();
            }
            row.startNewTuple();
        }
        putAll(row, after);
        return row.finish();
    }

    private static void putAll(RowWriter row, Struct struct) {
        for (Field field : struct.schema().fields()) {
            Object v = struct.get(field);
            if (v == null) {
                row.putNull();
            } else {
                row.putText(String.valueOf(v));
            }
        }
    }

    private static Schema rowSchema(SourceRecord record) {
        return record.valueSchema().field("after").schema();
    }
}
