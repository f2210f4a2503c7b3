package io.rdmarepl.format.record;

import io.rdmarepl.format.NumericSpecial;
import io.rdmarepl.format.ValueTag;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * One column value, exactly as PostgreSQL holds it. Units and sentinels follow
 * {@link io.rdmarepl.format.codec.ValueDescriptor}. Floats compare as {@code Float.compare} does
 * (NaN equals NaN, -0.0 differs from 0.0); numerics compare with their scale.
 */
public sealed interface Value {
    /** The NULL value. */
    Value NULL = new Null();
    /** The unchanged-TOAST marker. */
    Value UNCHANGED_TOAST = new UnchangedToast();

    ValueTag tag();

    record Null() implements Value {
        public ValueTag tag() { return ValueTag.NULL; }
    }

    record UnchangedToast() implements Value {
        public ValueTag tag() { return ValueTag.UNCHANGED_TOAST; }
    }

    record Bool(boolean value) implements Value {
        public ValueTag tag() { return ValueTag.BOOL; }
    }

    record Int2(short value) implements Value {
        public ValueTag tag() { return ValueTag.INT2; }
    }

    record Int4(int value) implements Value {
        public ValueTag tag() { return ValueTag.INT4; }
    }

    record Int8(long value) implements Value {
        public ValueTag tag() { return ValueTag.INT8; }
    }

    record Float4(float value) implements Value {
        public ValueTag tag() { return ValueTag.FLOAT4; }
    }

    record Float8(double value) implements Value {
        public ValueTag tag() { return ValueTag.FLOAT8; }
    }

    /** A finite numeric; see {@link NonFiniteNumeric} for NaN and infinities. */
    record Numeric(BigDecimal value) implements Value {
        public Numeric {
            Objects.requireNonNull(value, "value");
        }

        public ValueTag tag() { return ValueTag.NUMERIC; }
    }

    record NonFiniteNumeric(NumericSpecial special) implements Value {
        public NonFiniteNumeric {
            if (special == null || special == NumericSpecial.NONE) {
                throw new IllegalArgumentException("a non-finite numeric needs NAN or an infinity, not " + special);
            }
        }

        public ValueTag tag() { return ValueTag.NUMERIC; }
    }

    record Text(String value) implements Value {
        public ValueTag tag() { return ValueTag.TEXT; }
    }

    record Bytea(byte[] value) implements Value {
        public Bytea {
            value = value.clone();
        }

        public byte[] value() { return value.clone(); }

        public ValueTag tag() { return ValueTag.BYTEA; }

        @Override
        public boolean equals(Object o) {
            return o instanceof Bytea other && Arrays.equals(value, other.value);
        }

        @Override
        public int hashCode() { return Arrays.hashCode(value); }

        @Override
        public String toString() { return "Bytea[\\x" + HexFormat.of().formatHex(value) + "]"; }
    }

    /** Days since 1970-01-01 or a {@link io.rdmarepl.format.PgInfinity} sentinel. */
    record Date(int days) implements Value {
        public ValueTag tag() { return ValueTag.DATE; }
    }

    record Time(long micros) implements Value {
        public ValueTag tag() { return ValueTag.TIME; }
    }

    /** Local time of day and zone offset in seconds east of UTC. */
    record TimeTz(long micros, int offsetSeconds) implements Value {
        public ValueTag tag() { return ValueTag.TIMETZ; }
    }

    record Timestamp(long micros) implements Value {
        public ValueTag tag() { return ValueTag.TIMESTAMP; }
    }

    record TimestampTz(long micros) implements Value {
        public ValueTag tag() { return ValueTag.TIMESTAMPTZ; }
    }

    record Interval(int months, int days, long micros) implements Value {
        public ValueTag tag() { return ValueTag.INTERVAL; }
    }

    record Uuid(long mostSignificantBits, long leastSignificantBits) implements Value {
        public ValueTag tag() { return ValueTag.UUID; }
    }

    record Json(String value) implements Value {
        public ValueTag tag() { return ValueTag.JSON; }
    }

    record Jsonb(String value) implements Value {
        public ValueTag tag() { return ValueTag.JSONB; }
    }

    /** inet ({@code cidr == false}) or cidr: 4 or 16 address bytes in network order and a mask length. */
    record Inet(boolean cidr, byte[] address, int bits) implements Value {
        public Inet {
            if (address.length != 4 && address.length != 16 || bits < 0 || bits > address.length * 8) {
                throw new IllegalArgumentException(address.length + " address bytes with mask " + bits);
            }
            address = address.clone();
        }

        public byte[] address() { return address.clone(); }

        public ValueTag tag() { return cidr ? ValueTag.CIDR : ValueTag.INET; }

        @Override
        public boolean equals(Object o) {
            return o instanceof Inet other && cidr == other.cidr && bits == other.bits && Arrays.equals(address, other.address);
        }

        @Override
        public int hashCode() { return Arrays.hashCode(address) * 31 + bits + (cidr ? 1 : 0); }

        @Override
        public String toString() {
            return (cidr ? "Cidr[" : "Inet[") + HexFormat.of().formatHex(address) + "/" + bits + "]";
        }
    }

    /** macaddr (low 48 bits) or macaddr8 (64 bits), first byte most significant. */
    record Macaddr(boolean eightBytes, long value) implements Value {
        public ValueTag tag() { return eightBytes ? ValueTag.MACADDR8 : ValueTag.MACADDR; }
    }

    record EnumLabel(String label) implements Value {
        public ValueTag tag() { return ValueTag.ENUM; }
    }

    /** Any type without a tag of its own: PostgreSQL's text form and the type OID. */
    record TextFallback(int typeOid, String text) implements Value {
        public ValueTag tag() { return ValueTag.TEXT_FALLBACK; }
    }

    /** A possibly multi-dimensional array; elements row-major, each NULL or of the element tag. */
    record Array(ValueTag elementTag, int[] lengths, int[] lowerBounds, List<Value> elements) implements Value {
        public Array {
            lengths = lengths.clone();
            lowerBounds = lowerBounds.clone();
            elements = List.copyOf(elements);
            long expected = lengths.length == 0 ? 0 : 1;
            for (int length : lengths) {
                expected *= length;
            }
            if (lengths.length != lowerBounds.length || expected != elements.size()) {
                throw new IllegalArgumentException("dimensions " + Arrays.toString(lengths) + " with "
                    + lowerBounds.length + " lower bounds do not hold " + elements.size() + " elements");
            }
        }

        /** A one-dimensional array with lower bound 1 ({@code '{}'} when empty). */
        public static Array of(ValueTag elementTag, List<Value> elements) {
            return elements.isEmpty()
                ? new Array(elementTag, new int[0], new int[0], elements)
                : new Array(elementTag, new int[] {elements.size()}, new int[] {1}, elements);
        }

        public int[] lengths() { return lengths.clone(); }

        public int[] lowerBounds() { return lowerBounds.clone(); }

        public ValueTag tag() { return ValueTag.ARRAY; }

        @Override
        public boolean equals(Object o) {
            return o instanceof Array other && elementTag == other.elementTag && Arrays.equals(lengths, other.lengths)
                && Arrays.equals(lowerBounds, other.lowerBounds) && elements.equals(other.elements);
        }

        @Override
        public int hashCode() { return Objects.hash(elementTag, Arrays.hashCode(lengths), elements); }

        @Override
        public String toString() {
            return "Array[" + elementTag.typeName() + " " + Arrays.toString(lengths) + " from "
                + Arrays.toString(lowerBounds) + " " + elements + "]";
        }
    }
}
