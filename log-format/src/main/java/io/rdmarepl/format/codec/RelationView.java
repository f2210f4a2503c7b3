package io.rdmarepl.format.codec;

import static io.rdmarepl.format.codec.RelationDescriptor.COLUMN_COUNT_OFFSET;
import static io.rdmarepl.format.codec.RelationDescriptor.COLUMN_FLAGS_OFFSET;
import static io.rdmarepl.format.codec.RelationDescriptor.COLUMN_KEY_FLAG;
import static io.rdmarepl.format.codec.RelationDescriptor.COLUMN_NAME_OFFSET;
import static io.rdmarepl.format.codec.RelationDescriptor.COLUMN_TYPE_MODIFIER_OFFSET;
import static io.rdmarepl.format.codec.RelationDescriptor.COLUMN_TYPE_OID_OFFSET;
import static io.rdmarepl.format.codec.RelationDescriptor.RELATION_ID_OFFSET;
import static io.rdmarepl.format.codec.RelationDescriptor.REPLICA_IDENTITY_OFFSET;
import static io.rdmarepl.format.codec.RelationDescriptor.SCHEMA_OFFSET;

import io.rdmarepl.format.RecordKind;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * A Relation record: the shape of a table as the source sees it. Strings come as allocating
 * {@code String}s or appended to a caller's {@code StringBuilder}. Owned by the decoder, reused,
 * valid only during {@link RecordHandler#onRelation}.
 */
public final class RelationView {
    private static final int MIN_COLUMN_LENGTH = COLUMN_NAME_OFFSET + 2 * Integer.BYTES;

    private final StringBuilder scratch = new StringBuilder();
    private ByteBuffer buffer;
    private int recordOffset;
    private int tableAt;
    private int[] columnOffsets = new int[16];
    private int columnCount;

    RelationView() {
    }

    public int relationId() {
        return buffer.getInt(recordOffset + RELATION_ID_OFFSET);
    }

    /** PostgreSQL's relreplident: {@code d} default, {@code n} nothing, {@code f} full, {@code i} index. */
    public char replicaIdentity() {
        return (char) (buffer.get(recordOffset + REPLICA_IDENTITY_OFFSET) & 0xFF);
    }

    public String schema() {
        return string(recordOffset + SCHEMA_OFFSET);
    }

    public StringBuilder copySchema(StringBuilder out) {
        return append(recordOffset + SCHEMA_OFFSET, out);
    }

    public String table() {
        return string(tableAt);
    }

    public StringBuilder copyTable(StringBuilder out) {
        return append(tableAt, out);
    }

    public int columnCount() {
        return columnCount;
    }

    public String columnName(int i) {
        return string(column(i) + COLUMN_NAME_OFFSET);
    }

    public StringBuilder copyColumnName(int i, StringBuilder out) {
        return append(column(i) + COLUMN_NAME_OFFSET, out);
    }

    public int columnTypeOid(int i) {
        return buffer.getInt(column(i) + COLUMN_TYPE_OID_OFFSET);
    }

    /** The type's name as the source printed it, e.g. {@code varchar} or {@code public.mood}. */
    public String columnTypeName(int i) {
        int nameAt = column(i) + COLUMN_NAME_OFFSET;
        return string(nameAt + Integer.BYTES + buffer.getInt(nameAt));
    }

    /** atttypmod, -1 when the type has none. */
    public int columnTypeModifier(int i) {
        return buffer.getInt(column(i) + COLUMN_TYPE_MODIFIER_OFFSET);
    }

    /** True for a replica identity key column. */
    public boolean isKeyColumn(int i) {
        return (buffer.get(column(i) + COLUMN_FLAGS_OFFSET) & COLUMN_KEY_FLAG) != 0;
    }

    /** Validates the Relation record body and records column offsets. */
    void wrap(ByteBuffer buffer, int recordOffset, int end) {
        this.buffer = buffer;
        this.recordOffset = recordOffset;
        this.columnCount = 0;
        need(recordOffset + RELATION_ID_OFFSET, end, SCHEMA_OFFSET - RELATION_ID_OFFSET, "relation header");
        int columns = buffer.getShort(recordOffset + COLUMN_COUNT_OFFSET) & 0xFFFF;
        tableAt = skipString(recordOffset + SCHEMA_OFFSET, end, "schema", -1);
        int p = skipString(tableAt, end, "table", -1);
        if ((long) columns * MIN_COLUMN_LENGTH > end - p) {
            throw FormatErrors.corrupt(RecordKind.RELATION, recordOffset, "relation announces " + columns
                + " columns in " + (end - p) + " bytes");
        }
        if (columnOffsets.length < columns) {
            columnOffsets = Arrays.copyOf(columnOffsets, Math.max(columns, columnOffsets.length * 2));
        }
        for (int c = 0; c < columns; c++) {
            columnOffsets[c] = p;
            need(p, end, COLUMN_NAME_OFFSET, "column");
            int flags = buffer.get(p + COLUMN_FLAGS_OFFSET) & 0xFF;
            if ((flags & ~COLUMN_KEY_FLAG) != 0) {
                throw FormatErrors.corrupt(RecordKind.RELATION, recordOffset, "column " + c + " has unknown flags " + flags);
            }
            p = skipString(p + COLUMN_NAME_OFFSET, end, "name", c);
            p = skipString(p, end, "type name", c);
        }
        if (p != end) {
            throw FormatErrors.corrupt(RecordKind.RELATION, recordOffset, "body has " + (end - p)
                + " bytes after its last column");
        }
        columnCount = columns;
    }

    private int column(int i) {
        return columnOffsets[Objects.checkIndex(i, columnCount)];
    }

    private String string(int at) {
        scratch.setLength(0);
        return append(at, scratch).toString();
    }

    private StringBuilder append(int at, StringBuilder out) {
        int bad = Utf8.decode(buffer, at + Integer.BYTES, buffer.getInt(at), out);
        if (bad >= 0) {
            throw FormatErrors.corrupt(RecordKind.RELATION, recordOffset, "malformed UTF-8 at offset " + bad);
        }
        return out;
    }

    private void need(int at, int end, int bytes, String field) {
        if (bytes > end - at) {
            FormatErrors.need(RecordKind.RELATION, recordOffset, at, end, bytes, field);
        }
    }

    private int skipString(int at, int end, String field, int column) {
        if (Integer.BYTES > end - at) {
            FormatErrors.need(RecordKind.RELATION, recordOffset, at, end, Integer.BYTES, fieldName(field, column));
        }
        int length = buffer.getInt(at);
        if (length < 0 || length > end - at - Integer.BYTES) {
            FormatErrors.checkLength(RecordKind.RELATION, recordOffset, at + Integer.BYTES, end, length,
                fieldName(field, column));
        }
        return at + Integer.BYTES + length;
    }

    private static String fieldName(String field, int column) {
        return column < 0 ? field : "column " + column + " " + field;
    }
}
