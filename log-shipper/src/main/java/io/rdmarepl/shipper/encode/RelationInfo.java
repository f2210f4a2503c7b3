package io.rdmarepl.shipper.encode;

import io.rdmarepl.format.RecordCapacityException;
import io.rdmarepl.format.codec.RecordEncoder;
import io.rdmarepl.format.codec.RelationWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * A table's column list as one version of its Relation record. {@link #id()} is the table's pg_class OID (stable
 * for the table's life, and what Truncate records name); {@link #version()} grows by one each time the column list
 * the shipper sees for that table changes (column added, dropped, retyped, key changed). A stream must send the
 * Relation record (see {@link #encodeRelation}) before the first row of a (relation id, version) it has not sent.
 * Immutable; the encoded Relation record is built once.
 */
public final class RelationInfo implements io.rdmarepl.shipper.capture.TableRelation {
    private final int id;
    private final int version;
    private final String schema;
    private final String table;
    private final char replicaIdentity;
    private final List<ColumnInfo> columns;
    private final byte[] encoded;

    RelationInfo(int id, int version, String schema, String table, char replicaIdentity, List<ColumnInfo> columns) {
        this.id = id;
        this.version = version;
        this.schema = schema;
        this.table = table;
        this.replicaIdentity = replicaIdentity;
        this.columns = List.copyOf(columns);
        this.encoded = encode();
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public int version() {
        return version;
    }

    public String schema() {
        return schema;
    }

    public String table() {
        return table;
    }

    /** {@code relreplident}: d default (primary key), i index, f full, n nothing. */
    public char replicaIdentity() {
        return replicaIdentity;
    }

    /** The columns in attribute order: the order of every tuple of this relation version. */
    public List<ColumnInfo> columns() {
        return columns;
    }

    /** Length of the encoded Relation record. */
    public int encodedLength() {
        return encoded.length;
    }

    /**
     * Copies the Relation record into {@code out} at {@code offset}; returns its length.
     *
     * @throws RecordCapacityException if it needs more than {@code maxLength} bytes (nothing written)
     */
    @Override
    public int encodeRelation(ByteBuffer out, int offset, int maxLength) {
        if (encoded.length > maxLength) {
            throw new RecordCapacityException("Relation record of " + schema + "." + table + " needs " + encoded.length
                + " bytes, " + maxLength + " given", encoded.length, maxLength);
        }
        out.put(offset, encoded, 0, encoded.length);
        return encoded.length;
    }

    /** True if {@code other} describes the same columns (name, type, typmod, key) in the same order. */
    boolean sameColumns(RelationInfo other) {
        return other != null && replicaIdentity == other.replicaIdentity && columns.equals(other.columns);
    }

    private byte[] encode() {
        RecordEncoder encoder = new RecordEncoder();
        int capacity = 256;
        while (true) {
            ByteBuffer buffer = ByteBuffer.allocate(capacity);
            try {
                RelationWriter writer = encoder.startRelation(buffer, 0, capacity, id, schema, table, replicaIdentity);
                for (ColumnInfo c : columns) {
                    writer.putColumn(c.name(), c.typeOid(), c.typeName(), c.typeModifier(), c.key());
                }
                int length = writer.finish();
                byte[] bytes = new byte[length];
                buffer.get(0, bytes);
                return bytes;
            } catch (RecordCapacityException e) {
                capacity *= 2;
            }
        }
    }

    @Override
    public String toString() {
        return "Relation " + schema + "." + table + " (id " + id + " v" + version + ", " + columns.size() + " columns)";
    }
}
