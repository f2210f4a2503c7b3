package io.rdmarepl.format.codec;

import io.rdmarepl.format.ValueTag;

/**
 * Layout of one column value (or array element). Every value starts with its {@link ValueTag} code;
 * offsets below count from that tag byte. Multi-byte numbers are little-endian; addresses and numeric
 * digits keep network (big-endian) order, as PostgreSQL and {@code BigInteger} write them.
 *
 * <pre>
 *  tag (u8)            payload
 *  NULL, UNCHANGED_TOAST   (none)
 *  BOOL                | value (u8): 0 or 1 |
 *  INT2 / INT4 / INT8  | value (short / int / long) |
 *  FLOAT4 / FLOAT8     | IEEE 754 raw bits (int / long): NaN payload and -0.0 kept |
 *  NUMERIC             | special (u8) | scale (int) | length (int) | unscaled value: two's complement,
 *                        big-endian, length bytes (BigInteger.toByteArray) |
 *                        special: 0 finite (length &gt;= 1), 1 NaN, 2 +Infinity, 3 -Infinity (scale 0, length 0)
 *  TEXT, JSON, JSONB,  | length (int) | UTF-8 bytes |
 *   ENUM
 *  BYTEA               | length (int) | bytes |
 *  DATE                | days since 1970-01-01 (int); Integer.MAX_VALUE/MIN_VALUE = +/-infinity |
 *  TIME                | microseconds since midnight (long) |
 *  TIMETZ              | microseconds since local midnight (long) | zone offset, seconds east of UTC (int) |
 *  TIMESTAMP,          | microseconds since 1970-01-01 00:00 (long); Long.MAX_VALUE/MIN_VALUE = +/-infinity |
 *   TIMESTAMPTZ          (TIMESTAMPTZ in UTC)
 *  INTERVAL            | months (int) | days (int) | microseconds (long) |
 *  UUID                | most significant bits (long) | least significant bits (long) |
 *  INET, CIDR          | family (u8): 4 or 6 | mask bits (u8) | address: 4 or 16 bytes, network order |
 *  MACADDR / MACADDR8  | 6 / 8 bytes, network order |
 *  TEXT_FALLBACK       | type OID (int) | length (int) | UTF-8 text form of the value |
 *  ARRAY               | element tag (u8) | ndims (u8) | length (int): bytes after this field |
 *                      | (dimension length (int) | lower bound (int)) x ndims |
 *                      | element x product of dimension lengths, row-major: each a full value whose
 *                        tag is the element tag or NULL |
 *
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  | tag=TEXT (u8) |              length (int)                     |  0
 *  +---------------+-----------------------------------------------+
 *  |               |               UTF-8 bytes ...                 |  4
 *  +---------------+-----------------------------------------------+
 * </pre>
 *
 * Timestamps count from the Unix epoch like Debezium's and the record header's times, so finite values run
 * from 4713 BC to 294246 AD; PostgreSQL's last 30 years before 294277 AD do not fit a long in that unit and
 * must travel as TEXT_FALLBACK (their exact text form).
 *
 * <p>An empty array has ndims 0 and no elements. Arrays do not nest: PostgreSQL arrays are
 * multi-dimensional instead.
 */
public final class ValueDescriptor {
    public static final int TAG_OFFSET = 0;
    public static final int PAYLOAD_OFFSET = TAG_OFFSET + Byte.BYTES;

    /** TEXT, JSON, JSONB, ENUM, BYTEA. */
    public static final int VARLEN_LENGTH_OFFSET = PAYLOAD_OFFSET;
    public static final int VARLEN_BYTES_OFFSET = VARLEN_LENGTH_OFFSET + Integer.BYTES;

    public static final int NUMERIC_SPECIAL_OFFSET = PAYLOAD_OFFSET;
    public static final int NUMERIC_SCALE_OFFSET = NUMERIC_SPECIAL_OFFSET + Byte.BYTES;
    public static final int NUMERIC_LENGTH_OFFSET = NUMERIC_SCALE_OFFSET + Integer.BYTES;
    public static final int NUMERIC_DIGITS_OFFSET = NUMERIC_LENGTH_OFFSET + Integer.BYTES;

    public static final int TIMETZ_MICROS_OFFSET = PAYLOAD_OFFSET;
    public static final int TIMETZ_ZONE_OFFSET = TIMETZ_MICROS_OFFSET + Long.BYTES;

    public static final int INTERVAL_MONTHS_OFFSET = PAYLOAD_OFFSET;
    public static final int INTERVAL_DAYS_OFFSET = INTERVAL_MONTHS_OFFSET + Integer.BYTES;
    public static final int INTERVAL_MICROS_OFFSET = INTERVAL_DAYS_OFFSET + Integer.BYTES;

    public static final int UUID_MSB_OFFSET = PAYLOAD_OFFSET;
    public static final int UUID_LSB_OFFSET = UUID_MSB_OFFSET + Long.BYTES;

    public static final int INET_FAMILY_OFFSET = PAYLOAD_OFFSET;
    public static final int INET_BITS_OFFSET = INET_FAMILY_OFFSET + Byte.BYTES;
    public static final int INET_ADDRESS_OFFSET = INET_BITS_OFFSET + Byte.BYTES;
    public static final int INET_FAMILY_V4 = 4;
    public static final int INET_FAMILY_V6 = 6;

    public static final int MACADDR_LENGTH = 6;
    public static final int MACADDR8_LENGTH = 8;

    public static final int FALLBACK_TYPE_OID_OFFSET = PAYLOAD_OFFSET;
    public static final int FALLBACK_LENGTH_OFFSET = FALLBACK_TYPE_OID_OFFSET + Integer.BYTES;
    public static final int FALLBACK_BYTES_OFFSET = FALLBACK_LENGTH_OFFSET + Integer.BYTES;

    public static final int ARRAY_ELEMENT_TAG_OFFSET = PAYLOAD_OFFSET;
    public static final int ARRAY_DIMENSIONS_OFFSET = ARRAY_ELEMENT_TAG_OFFSET + Byte.BYTES;
    public static final int ARRAY_LENGTH_OFFSET = ARRAY_DIMENSIONS_OFFSET + Byte.BYTES;
    public static final int ARRAY_DIMENSION_TABLE_OFFSET = ARRAY_LENGTH_OFFSET + Integer.BYTES;
    public static final int ARRAY_DIMENSION_ENTRY_LENGTH = 2 * Integer.BYTES;
    /** PostgreSQL's MAXDIM. */
    public static final int MAX_ARRAY_DIMENSIONS = 6;

    private static final int[] FIXED_LENGTH = new int[ValueTag.values().length];

    static {
        java.util.Arrays.fill(FIXED_LENGTH, -1);
        fixed(ValueTag.NULL, 0);
        fixed(ValueTag.UNCHANGED_TOAST, 0);
        fixed(ValueTag.BOOL, Byte.BYTES);
        fixed(ValueTag.INT2, Short.BYTES);
        fixed(ValueTag.INT4, Integer.BYTES);
        fixed(ValueTag.INT8, Long.BYTES);
        fixed(ValueTag.FLOAT4, Integer.BYTES);
        fixed(ValueTag.FLOAT8, Long.BYTES);
        fixed(ValueTag.DATE, Integer.BYTES);
        fixed(ValueTag.TIME, Long.BYTES);
        fixed(ValueTag.TIMETZ, Long.BYTES + Integer.BYTES);
        fixed(ValueTag.TIMESTAMP, Long.BYTES);
        fixed(ValueTag.TIMESTAMPTZ, Long.BYTES);
        fixed(ValueTag.INTERVAL, 2 * Integer.BYTES + Long.BYTES);
        fixed(ValueTag.UUID, 2 * Long.BYTES);
        fixed(ValueTag.MACADDR, MACADDR_LENGTH);
        fixed(ValueTag.MACADDR8, MACADDR8_LENGTH);
    }

    private ValueDescriptor() {
    }

    /** Total encoded length (tag included) of a fixed-size value, or -1 if the tag's length varies. */
    public static int fixedLength(ValueTag tag) {
        return FIXED_LENGTH[tag.ordinal()];
    }

    /** Address bytes for an inet family code, or -1 for an unknown family. */
    public static int inetAddressLength(int family) {
        return family == INET_FAMILY_V4 ? 4 : family == INET_FAMILY_V6 ? 16 : -1;
    }

    private static void fixed(ValueTag tag, int payloadLength) {
        FIXED_LENGTH[tag.ordinal()] = PAYLOAD_OFFSET + payloadLength;
    }
}
