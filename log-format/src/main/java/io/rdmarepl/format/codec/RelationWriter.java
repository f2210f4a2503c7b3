package io.rdmarepl.format.codec;

import static io.rdmarepl.format.codec.RelationDescriptor.COLUMN_COUNT_OFFSET;
import static io.rdmarepl.format.codec.RelationDescriptor.COLUMN_KEY_FLAG;
import static io.rdmarepl.format.codec.RelationDescriptor.COLUMN_NAME_OFFSET;
import static io.rdmarepl.format.codec.RelationDescriptor.COLUMN_TYPE_MODIFIER_OFFSET;
import static io.rdmarepl.format.codec.RelationDescriptor.COLUMN_TYPE_OID_OFFSET;
import static io.rdmarepl.format.codec.RelationDescriptor.MAX_COLUMNS;
import static io.rdmarepl.format.codec.RelationDescriptor.RELATION_ID_OFFSET;
import static io.rdmarepl.format.codec.RelationDescriptor.REPLICA_IDENTITY_OFFSET;
import static io.rdmarepl.format.codec.RelationDescriptor.SCHEMA_OFFSET;

import io.rdmarepl.format.RecordKind;
import java.nio.ByteBuffer;

/**
 * Writes one Relation record: obtained from {@link RecordEncoder#startRelation}, then one
 * {@link #putColumn} per column in attribute order, then {@link #finish()}. Reused; not thread-safe.
 */
public final class RelationWriter extends EncodingCursor {
    private boolean open;
    private int columnCount;
    private String field = "header";

    RelationWriter() {
    }

    RelationWriter start(ByteBuffer target, int offset, int maxLength, int relationId, CharSequence schema,
                         CharSequence table, char replicaIdentity) {
        open = false;
        field = "header";
        beginRecord(target, offset, maxLength, RecordKind.RELATION, 0);
        ensure(SCHEMA_OFFSET - RELATION_ID_OFFSET);
        buffer.putInt(recordOffset + RELATION_ID_OFFSET, relationId);
        buffer.put(recordOffset + REPLICA_IDENTITY_OFFSET, (byte) replicaIdentity);
        buffer.putShort(recordOffset + COLUMN_COUNT_OFFSET, (short) 0);
        position = recordOffset + SCHEMA_OFFSET;
        field = "schema";
        putString(schema);
        field = "table";
        putString(table);
        columnCount = 0;
        open = true;
        return this;
    }

    /** Appends a column: name, type OID, type name (e.g. {@code varchar}), typmod (-1 if none), key flag. */
    public RelationWriter putColumn(CharSequence name, int typeOid, CharSequence typeName, int typeModifier, boolean key) {
        if (!open) {
            throw new IllegalStateException("no Relation record started: call RecordEncoder.startRelation first");
        }
        if (columnCount == MAX_COLUMNS) {
            throw new IllegalStateException("a relation has at most " + MAX_COLUMNS + " columns");
        }
        field = "column " + columnCount;
        int at = ensure(COLUMN_NAME_OFFSET);
        buffer.put(at, (byte) (key ? COLUMN_KEY_FLAG : 0));
        buffer.putInt(at + COLUMN_TYPE_OID_OFFSET, typeOid);
        buffer.putInt(at + COLUMN_TYPE_MODIFIER_OFFSET, typeModifier);
        position = at + COLUMN_NAME_OFFSET;
        putString(name);
        putString(typeName);
        columnCount++;
        return this;
    }

    /** Completes the record; returns its length in bytes, header included. */
    public int finish() {
        if (!open) {
            throw new IllegalStateException("no Relation record started: call RecordEncoder.startRelation first");
        }
        open = false;
        buffer.putShort(recordOffset + COLUMN_COUNT_OFFSET, (short) columnCount);
        return endRecord();
    }

    @Override
    String describeField() {
        return field;
    }

    private void putString(CharSequence text) {
        int length = Utf8.encodedLength(text);
        if (length < 0) {
            throw new IllegalArgumentException("Relation record " + field + ": unpaired surrogate at index "
                + (-length - 1));
        }
        int at = ensure(Integer.BYTES + (long) length);
        buffer.putInt(at, length);
        position = Utf8.encode(text, buffer, at + Integer.BYTES);
    }
}
