package io.rdmarepl.format.codec;

import io.rdmarepl.format.NumericSpecial;
import io.rdmarepl.format.ValueTag;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The typed puts of {@link RowWriter}: one per PostgreSQL value type, each writing a tag and its payload
 * as {@link ValueDescriptor} lays them out, after checking there is room. Text is UTF-8 encoded straight
 * into the buffer; no put allocates (except {@link #putNumeric(BigDecimal)}, which says so).
 */
public abstract sealed class ValueWriter extends EncodingCursor permits RowWriter {
    private final byte[] address = new byte[16];

    ValueWriter() {
    }

    public RowWriter putNull() {
        slot(ValueTag.NULL);
        tagOnly(ValueTag.NULL);
        return self();
    }

    /** An unchanged TOASTed value: the applier must leave the column as it is. */
    public RowWriter putUnchangedToast() {
        slot(ValueTag.UNCHANGED_TOAST);
        tagOnly(ValueTag.UNCHANGED_TOAST);
        return self();
    }

    public RowWriter putBool(boolean value) {
        int at = fixed(ValueTag.BOOL);
        buffer.put(at + 1, (byte) (value ? 1 : 0));
        return self();
    }

    public RowWriter putInt2(short value) {
        buffer.putShort(fixed(ValueTag.INT2) + 1, value);
        return self();
    }

    public RowWriter putInt4(int value) {
        buffer.putInt(fixed(ValueTag.INT4) + 1, value);
        return self();
    }

    public RowWriter putInt8(long value) {
        buffer.putLong(fixed(ValueTag.INT8) + 1, value);
        return self();
    }

    public RowWriter putFloat4(float value) {
        buffer.putInt(fixed(ValueTag.FLOAT4) + 1, Float.floatToRawIntBits(value));
        return self();
    }

    public RowWriter putFloat8(double value) {
        buffer.putLong(fixed(ValueTag.FLOAT8) + 1, Double.doubleToRawLongBits(value));
        return self();
    }

    /** A finite numeric {@code unscaled * 10^-scale}; no allocation. */
    public RowWriter putNumeric(long unscaled, int scale) {
        int length = (64 - Long.numberOfLeadingZeros(unscaled ^ unscaled >> 63)) / 8 + 1;
        int at = numericHeader(NumericSpecial.NONE, scale, length);
        for (int i = 0; i < length; i++) {
            buffer.put(at + i, (byte) (unscaled >> 8 * (length - 1 - i)));
        }
        position = at + length;
        return self();
    }

    /** A finite numeric whose unscaled value is {@code BigInteger.toByteArray()} form (two's complement, big-endian). */
    public RowWriter putNumeric(byte[] unscaled, int offset, int length, int scale) {
        Objects.checkFromIndexSize(offset, length, unscaled.length);
        if (length < 1) {
            throw new IllegalArgumentException("numeric needs at least one unscaled byte");
        }
        int at = numericHeader(NumericSpecial.NONE, scale, length);
        buffer.put(at, unscaled, offset, length);
        position = at + length;
        return self();
    }

    /** A finite numeric, exactly as given (scale kept). Allocates the unscaled value: prefer the other forms on hot paths. */
    public RowWriter putNumeric(BigDecimal value) {
        byte[] unscaled = value.unscaledValue().toByteArray();
        return putNumeric(unscaled, 0, unscaled.length, value.scale());
    }

    /** numeric {@code NaN}, {@code Infinity} or {@code -Infinity}. */
    public RowWriter putNumericSpecial(NumericSpecial special) {
        if (special == NumericSpecial.NONE) {
            throw new IllegalArgumentException("putNumericSpecial needs NAN, POSITIVE_INFINITY or NEGATIVE_INFINITY");
        }
        position = numericHeader(special, 0, 0);
        return self();
    }

    public RowWriter putText(CharSequence value) {
        return utf8(ValueTag.TEXT, value);
    }

    /** Text already encoded as UTF-8 (not re-validated). */
    public RowWriter putText(byte[] utf8, int offset, int length) {
        return putVarlen(ValueTag.TEXT, utf8, offset, length);
    }

    public RowWriter putJson(CharSequence value) {
        return utf8(ValueTag.JSON, value);
    }

    public RowWriter putJsonb(CharSequence value) {
        return utf8(ValueTag.JSONB, value);
    }

    /** An enum value by its label. */
    public RowWriter putEnum(CharSequence label) {
        return utf8(ValueTag.ENUM, label);
    }

    public RowWriter putBytes(byte[] value) {
        return putVarlen(ValueTag.BYTEA, value, 0, value.length);
    }

    public RowWriter putBytes(byte[] value, int offset, int length) {
        return putVarlen(ValueTag.BYTEA, value, offset, length);
    }

    public RowWriter putBytes(ByteBuffer source, int index, int length) {
        Objects.checkFromIndexSize(index, length, source.limit());
        slot(ValueTag.BYTEA);
        int at = varlenHeader(ValueTag.BYTEA, length);
        buffer.put(at, source, index, length);
        position = at + length;
        return self();
    }

    /** Days since 1970-01-01, or {@link io.rdmarepl.format.PgInfinity#DATE_POSITIVE}/{@code DATE_NEGATIVE}. */
    public RowWriter putDate(int daysSinceEpoch) {
        buffer.putInt(fixed(ValueTag.DATE) + 1, daysSinceEpoch);
        return self();
    }

    public RowWriter putTime(long microsSinceMidnight) {
        buffer.putLong(fixed(ValueTag.TIME) + 1, microsSinceMidnight);
        return self();
    }

    /** A timetz: local time of day and its zone offset in seconds east of UTC (+02:00 is 7200). */
    public RowWriter putTimeTz(long microsSinceMidnight, int zoneOffsetSeconds) {
        int at = fixed(ValueTag.TIMETZ);
        buffer.putLong(at + ValueDescriptor.TIMETZ_MICROS_OFFSET, microsSinceMidnight);
        buffer.putInt(at + ValueDescriptor.TIMETZ_ZONE_OFFSET, zoneOffsetSeconds);
        return self();
    }

    /** Microseconds since the epoch, or {@link io.rdmarepl.format.PgInfinity} sentinels. */
    public RowWriter putTimestamp(long microsSinceEpoch) {
        buffer.putLong(fixed(ValueTag.TIMESTAMP) + 1, microsSinceEpoch);
        return self();
    }

    /** Microseconds since the epoch in UTC, or {@link io.rdmarepl.format.PgInfinity} sentinels. */
    public RowWriter putTimestampTz(long microsSinceEpoch) {
        buffer.putLong(fixed(ValueTag.TIMESTAMPTZ) + 1, microsSinceEpoch);
        return self();
    }

    public RowWriter putInterval(int months, int days, long micros) {
        int at = fixed(ValueTag.INTERVAL);
        buffer.putInt(at + ValueDescriptor.INTERVAL_MONTHS_OFFSET, months);
        buffer.putInt(at + ValueDescriptor.INTERVAL_DAYS_OFFSET, days);
        buffer.putLong(at + ValueDescriptor.INTERVAL_MICROS_OFFSET, micros);
        return self();
    }

    public RowWriter putUuid(long mostSignificantBits, long leastSignificantBits) {
        int at = fixed(ValueTag.UUID);
        buffer.putLong(at + ValueDescriptor.UUID_MSB_OFFSET, mostSignificantBits);
        buffer.putLong(at + ValueDescriptor.UUID_LSB_OFFSET, leastSignificantBits);
        return self();
    }

    /** A uuid from its text form: 32 hex digits, hyphens and braces ignored. */
    public RowWriter putUuid(CharSequence text) {
        long msb = 0;
        long lsb = 0;
        int digits = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '-' || c == '{' || c == '}') {
                continue;
            }
            int digit = Character.digit(c, 16);
            if (digit < 0 || digits == 32) {
                throw new IllegalArgumentException(describeNext(ValueTag.UUID) + ": not a uuid: '" + text + "'");
            }
            if (digits++ < 16) {
                msb = msb << 4 | digit;
            } else {
                lsb = lsb << 4 | digit;
            }
        }
        if (digits != 32) {
            throw new IllegalArgumentException(describeNext(ValueTag.UUID) + ": not a uuid: '" + text + "'");
        }
        return putUuid(msb, lsb);
    }

    /** An inet from its address bytes (4 or 16, network order) and mask length. */
    public RowWriter putInet(byte[] address, int bits) {
        return inet(ValueTag.INET, address, address.length, bits);
    }

    /** An inet from its text form, e.g. {@code 10.1.2.3/24} or {@code 2001:db8::1}. */
    public RowWriter putInet(CharSequence text) {
        int parsed = NetworkText.parseInet(text, address);
        return inet(ValueTag.INET, address, parsed >> 8 == 4 ? 4 : 16, parsed & 0xFF);
    }

    /** A cidr from its address bytes (4 or 16, network order, host bits zero) and mask length. */
    public RowWriter putCidr(byte[] address, int bits) {
        return inet(ValueTag.CIDR, address, address.length, bits);
    }

    /** A cidr from its text form, e.g. {@code 10.1.0.0/16}. */
    public RowWriter putCidr(CharSequence text) {
        int parsed = NetworkText.parseInet(text, address);
        return inet(ValueTag.CIDR, address, parsed >> 8 == 4 ? 4 : 16, parsed & 0xFF);
    }

    /** A macaddr: the low 48 bits of {@code value}, first byte most significant. */
    public RowWriter putMacaddr(long value) {
        return mac(ValueTag.MACADDR, value, ValueDescriptor.MACADDR_LENGTH);
    }

    public RowWriter putMacaddr(CharSequence text) {
        return putMacaddr(NetworkText.parseMac(text, 2 * ValueDescriptor.MACADDR_LENGTH));
    }

    /** A macaddr8: 64 bits, first byte most significant. */
    public RowWriter putMacaddr8(long value) {
        return mac(ValueTag.MACADDR8, value, ValueDescriptor.MACADDR8_LENGTH);
    }

    public RowWriter putMacaddr8(CharSequence text) {
        return putMacaddr8(NetworkText.parseMac(text, 2 * ValueDescriptor.MACADDR8_LENGTH));
    }

    /** Any other type, as PostgreSQL's text form tagged with its type OID, so nothing is dropped. */
    public RowWriter putTextFallback(int typeOid, CharSequence text) {
        slot(ValueTag.TEXT_FALLBACK);
        int length = utf8Length(text);
        int at = reserve(ValueDescriptor.FALLBACK_BYTES_OFFSET + (long) length);
        buffer.put(at, (byte) ValueTag.TEXT_FALLBACK.code());
        buffer.putInt(at + ValueDescriptor.FALLBACK_TYPE_OID_OFFSET, typeOid);
        buffer.putInt(at + ValueDescriptor.FALLBACK_LENGTH_OFFSET, length);
        position = Utf8.encode(text, buffer, at + ValueDescriptor.FALLBACK_BYTES_OFFSET);
        return self();
    }

    /**
     * Any other type, as PostgreSQL's text form already encoded as UTF-8: the {@code length} bytes of {@code source}
     * from {@code index} (absolute, the source's position untouched) are copied as they are, not re-validated.
     * Allocation-free: the way to pass a value received as bytes (a pgoutput TupleData column) without a String.
     */
    public RowWriter putTextFallback(int typeOid, ByteBuffer source, int index, int length) {
        Objects.checkFromIndexSize(index, length, source.limit());
        slot(ValueTag.TEXT_FALLBACK);
        int at = reserve(ValueDescriptor.FALLBACK_BYTES_OFFSET + (long) length);
        buffer.put(at, (byte) ValueTag.TEXT_FALLBACK.code());
        buffer.putInt(at + ValueDescriptor.FALLBACK_TYPE_OID_OFFSET, typeOid);
        buffer.putInt(at + ValueDescriptor.FALLBACK_LENGTH_OFFSET, length);
        buffer.put(at + ValueDescriptor.FALLBACK_BYTES_OFFSET, source, index, length);
        return self();
    }

    private String describeNext(ValueTag tag) {
        slot(tag);
        return kind.displayName() + " record " + describeField();
    }

    private int fixed(ValueTag tag) {
        slot(tag);
        int at = reserve(ValueDescriptor.fixedLength(tag));
        buffer.put(at, (byte) tag.code());
        return at;
    }

    private void tagOnly(ValueTag tag) {
        buffer.put(reserve(1), (byte) tag.code());
    }

    /** Writes the numeric header; returns the index where the unscaled bytes go. */
    private int numericHeader(NumericSpecial special, int scale, int length) {
        slot(ValueTag.NUMERIC);
        int at = reserve(ValueDescriptor.NUMERIC_DIGITS_OFFSET + (long) length);
        buffer.put(at, (byte) ValueTag.NUMERIC.code());
        buffer.put(at + ValueDescriptor.NUMERIC_SPECIAL_OFFSET, (byte) special.code());
        buffer.putInt(at + ValueDescriptor.NUMERIC_SCALE_OFFSET, scale);
        buffer.putInt(at + ValueDescriptor.NUMERIC_LENGTH_OFFSET, length);
        return at + ValueDescriptor.NUMERIC_DIGITS_OFFSET;
    }

    private RowWriter utf8(ValueTag tag, CharSequence value) {
        slot(tag);
        int length = utf8Length(value);
        int at = varlenHeader(tag, length);
        position = Utf8.encode(value, buffer, at);
        return self();
    }

    private int utf8Length(CharSequence value) {
        int length = Utf8.encodedLength(value);
        if (length < 0) {
            throw new IllegalArgumentException(kind.displayName() + " record " + describeField()
                + ": unpaired surrogate at index " + (-length - 1) + " has no UTF-8 form");
        }
        return length;
    }

    private RowWriter putVarlen(ValueTag tag, byte[] value, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, value.length);
        slot(tag);
        int at = varlenHeader(tag, length);
        buffer.put(at, value, offset, length);
        position = at + length;
        return self();
    }

    /** Writes tag and length; returns the index where the bytes go. */
    private int varlenHeader(ValueTag tag, int length) {
        int at = reserve(ValueDescriptor.VARLEN_BYTES_OFFSET + (long) length);
        buffer.put(at, (byte) tag.code());
        buffer.putInt(at + ValueDescriptor.VARLEN_LENGTH_OFFSET, length);
        return at + ValueDescriptor.VARLEN_BYTES_OFFSET;
    }

    private RowWriter inet(ValueTag tag, byte[] bytes, int length, int bits) {
        slot(tag);
        if (length != 4 && length != 16 || bits < 0 || bits > length * 8) {
            throw new IllegalArgumentException(kind.displayName() + " record " + describeField() + ": address of "
                + length + " bytes with mask " + bits + " is not an IPv4 or IPv6 network");
        }
        int at = reserve(ValueDescriptor.INET_ADDRESS_OFFSET + (long) length);
        buffer.put(at, (byte) tag.code());
        buffer.put(at + ValueDescriptor.INET_FAMILY_OFFSET,
            (byte) (length == 4 ? ValueDescriptor.INET_FAMILY_V4 : ValueDescriptor.INET_FAMILY_V6));
        buffer.put(at + ValueDescriptor.INET_BITS_OFFSET, (byte) bits);
        buffer.put(at + ValueDescriptor.INET_ADDRESS_OFFSET, bytes, 0, length);
        return self();
    }

    private RowWriter mac(ValueTag tag, long value, int length) {
        int at = fixed(tag) + 1;
        for (int i = 0; i < length; i++) {
            buffer.put(at + i, (byte) (value >>> 8 * (length - 1 - i)));
        }
        return self();
    }

    /** Checks that a value with this tag may come next (tuple open, array element type) and notes it for messages. */
    abstract void slot(ValueTag tag);

    /** Claims {@code bytes} for the value announced by {@link #slot}; returns the index of its tag. */
    abstract int reserve(long bytes);

    abstract RowWriter self();
}
