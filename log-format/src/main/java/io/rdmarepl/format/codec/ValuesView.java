package io.rdmarepl.format.codec;

import io.rdmarepl.format.NumericSpecial;
import io.rdmarepl.format.RecordKind;
import io.rdmarepl.format.ValueTag;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * Typed, random access to a validated sequence of values (the columns of a tuple or the elements of
 * an array), read straight from the buffer. Index {@code i} is 0-based. Accessors check the value's tag
 * and throw {@link IllegalStateException} on a mismatch; only the methods documented as allocating
 * ({@link #text}, {@link #bytes}, {@link #numeric}) allocate. Valid only during the decoder callback.
 */
public abstract class ValuesView {
    private final StringBuilder scratch = new StringBuilder();
    private final byte[] address = new byte[16];
    ByteBuffer buffer;
    RecordKind kind;
    int recordOffset;
    int[] offsets = new int[16];
    int count;

    ValuesView() {
    }

    /** The (little-endian view of the) buffer the values live in, for zero-copy reads via {@link #bytesOffset}. */
    public ByteBuffer buffer() {
        return buffer;
    }

    public ValueTag tag(int i) {
        return ValueTag.ofCode(buffer.get(offset(i)) & 0xFF);
    }

    public boolean isNull(int i) {
        return tag(i) == ValueTag.NULL;
    }

    public boolean isUnchangedToast(int i) {
        return tag(i) == ValueTag.UNCHANGED_TOAST;
    }

    public boolean bool(int i) {
        return buffer.get(expect(i, ValueTag.BOOL) + 1) != 0;
    }

    public short int2(int i) {
        return buffer.getShort(expect(i, ValueTag.INT2) + 1);
    }

    public int int4(int i) {
        return buffer.getInt(expect(i, ValueTag.INT4) + 1);
    }

    public long int8(int i) {
        return buffer.getLong(expect(i, ValueTag.INT8) + 1);
    }

    public float float4(int i) {
        return Float.intBitsToFloat(buffer.getInt(expect(i, ValueTag.FLOAT4) + 1));
    }

    public double float8(int i) {
        return Double.longBitsToDouble(buffer.getLong(expect(i, ValueTag.FLOAT8) + 1));
    }

    /** {@link NumericSpecial#NONE} for a finite numeric, else NaN or an infinity. */
    public NumericSpecial numericSpecial(int i) {
        return NumericSpecial.ofCode(buffer.get(expect(i, ValueTag.NUMERIC) + ValueDescriptor.NUMERIC_SPECIAL_OFFSET) & 0xFF);
    }

    public int numericScale(int i) {
        return buffer.getInt(expect(i, ValueTag.NUMERIC) + ValueDescriptor.NUMERIC_SCALE_OFFSET);
    }

    /** Bytes of the two's complement, big-endian unscaled value. */
    public int numericUnscaledLength(int i) {
        return buffer.getInt(expect(i, ValueTag.NUMERIC) + ValueDescriptor.NUMERIC_LENGTH_OFFSET);
    }

    /** True if the finite unscaled value fits a long (then read it with {@link #numericUnscaledLong}). */
    public boolean numericFitsInLong(int i) {
        int length = numericUnscaledLength(i);
        return length >= 1 && length <= Long.BYTES;
    }

    public long numericUnscaledLong(int i) {
        int at = expect(i, ValueTag.NUMERIC);
        int length = buffer.getInt(at + ValueDescriptor.NUMERIC_LENGTH_OFFSET);
        if (length < 1 || length > Long.BYTES) {
            throw new IllegalStateException(describe(i) + " unscaled value has " + length + " bytes, not 1 to 8");
        }
        int digitsAt = at + ValueDescriptor.NUMERIC_DIGITS_OFFSET;
        long value = buffer.get(digitsAt);
        for (int k = 1; k < length; k++) {
            value = value << 8 | buffer.get(digitsAt + k) & 0xFF;
        }
        return value;
    }

    /** Copies the unscaled bytes into {@code dst} at {@code dstOffset}; returns how many. */
    public int copyNumericUnscaled(int i, byte[] dst, int dstOffset) {
        int at = expect(i, ValueTag.NUMERIC);
        int length = buffer.getInt(at + ValueDescriptor.NUMERIC_LENGTH_OFFSET);
        buffer.get(at + ValueDescriptor.NUMERIC_DIGITS_OFFSET, dst, dstOffset, length);
        return length;
    }

    /** A finite numeric as a BigDecimal (allocates); NaN and infinities throw, see {@link #numericSpecial}. */
    public BigDecimal numeric(int i) {
        NumericSpecial special = numericSpecial(i);
        if (special != NumericSpecial.NONE) {
            throw new IllegalStateException(describe(i) + " is " + special + ", which BigDecimal cannot hold");
        }
        byte[] unscaled = new byte[numericUnscaledLength(i)];
        copyNumericUnscaled(i, unscaled, 0);
        return new BigDecimal(new BigInteger(unscaled), numericScale(i));
    }

    /** Absolute index in {@link #buffer()} of the bytes of a text, json, jsonb, enum, fallback or bytea value. */
    public int bytesOffset(int i) {
        return varlenLengthAt(i) + Integer.BYTES;
    }

    /** Byte length of a text, json, jsonb, enum, fallback (UTF-8) or bytea value. */
    public int bytesLength(int i) {
        return buffer.getInt(varlenLengthAt(i));
    }

    /** UTF-8 byte length of a text-like value (text, json, jsonb, enum, fallback). */
    public int textLength(int i) {
        return buffer.getInt(textLengthAt(i));
    }

    /** Copies the raw bytes of a text-like or bytea value into {@code dst}; returns how many. */
    public int copyBytes(int i, byte[] dst, int dstOffset) {
        int lengthAt = varlenLengthAt(i);
        int length = buffer.getInt(lengthAt);
        buffer.get(lengthAt + Integer.BYTES, dst, dstOffset, length);
        return length;
    }

    /** Appends a text-like value to {@code out} without allocating (beyond growing {@code out}). */
    public StringBuilder copyText(int i, StringBuilder out) {
        int lengthAt = textLengthAt(i);
        int bad = Utf8.decode(buffer, lengthAt + Integer.BYTES, buffer.getInt(lengthAt), out);
        if (bad >= 0) {
            throw FormatErrors.corrupt(kind, recordOffset, describe(i) + " has malformed UTF-8 at offset " + bad);
        }
        return out;
    }

    /** A text-like value as a String (allocates: control plane). */
    public String text(int i) {
        scratch.setLength(0);
        return copyText(i, scratch).toString();
    }

    /** A bytea (or the UTF-8 of a text-like value) as a new array (allocates). */
    public byte[] bytes(int i) {
        byte[] bytes = new byte[bytesLength(i)];
        copyBytes(i, bytes, 0);
        return bytes;
    }

    /** Type OID of a {@link ValueTag#TEXT_FALLBACK} value. */
    public int fallbackTypeOid(int i) {
        return buffer.getInt(expect(i, ValueTag.TEXT_FALLBACK) + ValueDescriptor.FALLBACK_TYPE_OID_OFFSET);
    }

    /** Days since 1970-01-01 or a {@link io.rdmarepl.format.PgInfinity} sentinel. */
    public int date(int i) {
        return buffer.getInt(expect(i, ValueTag.DATE) + 1);
    }

    public long time(int i) {
        return buffer.getLong(expect(i, ValueTag.TIME) + 1);
    }

    public long timeTzMicros(int i) {
        return buffer.getLong(expect(i, ValueTag.TIMETZ) + ValueDescriptor.TIMETZ_MICROS_OFFSET);
    }

    /** Zone offset of a timetz in seconds east of UTC. */
    public int timeTzOffsetSeconds(int i) {
        return buffer.getInt(expect(i, ValueTag.TIMETZ) + ValueDescriptor.TIMETZ_ZONE_OFFSET);
    }

    /** Microseconds since the epoch or a {@link io.rdmarepl.format.PgInfinity} sentinel. */
    public long timestamp(int i) {
        return buffer.getLong(expect(i, ValueTag.TIMESTAMP) + 1);
    }

    /** Microseconds since the epoch (UTC) or a {@link io.rdmarepl.format.PgInfinity} sentinel. */
    public long timestampTz(int i) {
        return buffer.getLong(expect(i, ValueTag.TIMESTAMPTZ) + 1);
    }

    public int intervalMonths(int i) {
        return buffer.getInt(expect(i, ValueTag.INTERVAL) + ValueDescriptor.INTERVAL_MONTHS_OFFSET);
    }

    public int intervalDays(int i) {
        return buffer.getInt(expect(i, ValueTag.INTERVAL) + ValueDescriptor.INTERVAL_DAYS_OFFSET);
    }

    public long intervalMicros(int i) {
        return buffer.getLong(expect(i, ValueTag.INTERVAL) + ValueDescriptor.INTERVAL_MICROS_OFFSET);
    }

    public long uuidMostSignificantBits(int i) {
        return buffer.getLong(expect(i, ValueTag.UUID) + ValueDescriptor.UUID_MSB_OFFSET);
    }

    public long uuidLeastSignificantBits(int i) {
        return buffer.getLong(expect(i, ValueTag.UUID) + ValueDescriptor.UUID_LSB_OFFSET);
    }

    /** Mask length of an inet or cidr. */
    public int inetBits(int i) {
        return buffer.get(inetAt(i) + ValueDescriptor.INET_BITS_OFFSET) & 0xFF;
    }

    /** 4 for IPv4, 16 for IPv6. */
    public int inetAddressLength(int i) {
        return ValueDescriptor.inetAddressLength(buffer.get(inetAt(i) + ValueDescriptor.INET_FAMILY_OFFSET));
    }

    /** Copies the address bytes (network order) of an inet or cidr into {@code dst}; returns how many. */
    public int copyInetAddress(int i, byte[] dst, int dstOffset) {
        int length = inetAddressLength(i);
        buffer.get(inetAt(i) + ValueDescriptor.INET_ADDRESS_OFFSET, dst, dstOffset, length);
        return length;
    }

    /** Appends an inet or cidr in a text form PostgreSQL reads back to the same value. */
    public StringBuilder appendInet(int i, StringBuilder out) {
        int length = copyInetAddress(i, address, 0);
        return NetworkText.appendInet(out, address, length, inetBits(i), tag(i) == ValueTag.CIDR);
    }

    /** A macaddr (low 48 bits) or macaddr8 (64 bits), first byte most significant. */
    public long macaddr(int i) {
        ValueTag tag = tag(i);
        if (tag != ValueTag.MACADDR && tag != ValueTag.MACADDR8) {
            throw mismatch(i, "macaddr");
        }
        int length = tag == ValueTag.MACADDR ? ValueDescriptor.MACADDR_LENGTH : ValueDescriptor.MACADDR8_LENGTH;
        int at = offset(i) + 1;
        long value = 0;
        for (int k = 0; k < length; k++) {
            value = value << 8 | buffer.get(at + k) & 0xFF;
        }
        return value;
    }

    /** Absolute index of value {@code i}'s tag byte. */
    final int offset(int i) {
        return offsets[Objects.checkIndex(i, count)];
    }

    final int expect(int i, ValueTag tag) {
        int at = offset(i);
        if (buffer.get(at) != tag.code()) {
            throw mismatch(i, tag.typeName());
        }
        return at;
    }

    /** Grows the offsets table to hold {@code n} entries (only ever for a wider tuple than before). */
    final void capacity(int n) {
        if (offsets.length < n) {
            offsets = Arrays.copyOf(offsets, Math.max(n, offsets.length * 2));
        }
    }

    /** Names value {@code i} in messages, e.g. {@code new tuple column 3}. */
    abstract String name(int i);

    private String describe(int i) {
        return name(i) + " (" + tag(i).typeName() + ")";
    }

    private IllegalStateException mismatch(int i, String wanted) {
        return new IllegalStateException(name(i) + " is " + tag(i).typeName() + ", not " + wanted);
    }

    private int textLengthAt(int i) {
        ValueTag tag = tag(i);
        if (tag == ValueTag.TEXT_FALLBACK) {
            return offset(i) + ValueDescriptor.FALLBACK_LENGTH_OFFSET;
        }
        if (tag == ValueTag.TEXT || tag == ValueTag.JSON || tag == ValueTag.JSONB || tag == ValueTag.ENUM) {
            return offset(i) + ValueDescriptor.VARLEN_LENGTH_OFFSET;
        }
        throw mismatch(i, "text, json, jsonb, enum or text fallback");
    }

    private int varlenLengthAt(int i) {
        return tag(i) == ValueTag.BYTEA ? offset(i) + ValueDescriptor.VARLEN_LENGTH_OFFSET : textLengthAt(i);
    }

    private int inetAt(int i) {
        ValueTag tag = tag(i);
        if (tag != ValueTag.INET && tag != ValueTag.CIDR) {
            throw mismatch(i, "inet or cidr");
        }
        return offset(i);
    }
}
