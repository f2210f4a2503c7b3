package io.rdmarepl.format.codec;

import static io.rdmarepl.format.codec.RecordDescriptor.HEADER_LENGTH;

/**
 * Body of a Relation record, sent before a relation's first row change and again whenever its shape
 * changes. Strings are {@code | length (int) | UTF-8 bytes |}. Header flags are 0.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                   record header (8 bytes)                     |  0
 *  +---------------------------------------------------------------+
 *  |                     relationId (int): OID                     |  8
 *  +---------------+-----------------------------------------------+
 *  | replIdent (u8)|           columnCount (u16)   |               | 12
 *  +---------------+-------------------------------+               |
 *  |      schema (string) | table (string) | columns ...           | 15
 *  ...                                                           ...
 *
 *  each column:
 *  +---------------+-----------------------------------------------+
 *  | colFlags (u8) |              typeOid (int)                    | +0
 *  +---------------+-----------------------------------------------+
 *  |             typeModifier (int): atttypmod, -1 if none         | +5
 *  +---------------------------------------------------------------+
 *  |                name (string) | typeName (string)              | +9
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * {@code replIdent} is PostgreSQL's {@code relreplident} character: {@code d} default, {@code n} nothing,
 * {@code f} full, {@code i} index. {@code colFlags} bit 0 ({@link #COLUMN_KEY_FLAG}) marks a replica
 * identity key column; other bits are zero.
 */
public final class RelationDescriptor {
    public static final int RELATION_ID_OFFSET = HEADER_LENGTH;
    public static final int REPLICA_IDENTITY_OFFSET = RELATION_ID_OFFSET + Integer.BYTES;
    public static final int COLUMN_COUNT_OFFSET = REPLICA_IDENTITY_OFFSET + Byte.BYTES;
    public static final int SCHEMA_OFFSET = COLUMN_COUNT_OFFSET + Short.BYTES;

    public static final int COLUMN_FLAGS_OFFSET = 0;
    public static final int COLUMN_TYPE_OID_OFFSET = COLUMN_FLAGS_OFFSET + Byte.BYTES;
    public static final int COLUMN_TYPE_MODIFIER_OFFSET = COLUMN_TYPE_OID_OFFSET + Integer.BYTES;
    public static final int COLUMN_NAME_OFFSET = COLUMN_TYPE_MODIFIER_OFFSET + Integer.BYTES;

    public static final int COLUMN_KEY_FLAG = 0x1;
    public static final int MAX_COLUMNS = 0xFFFF;

    private RelationDescriptor() {
    }
}
