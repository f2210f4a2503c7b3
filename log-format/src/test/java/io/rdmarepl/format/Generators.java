package io.rdmarepl.format;

import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.format.record.Column;
import io.rdmarepl.format.record.Tuple;
import io.rdmarepl.format.record.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** jqwik generators for every record kind and every value type, edge values included. */
public final class Generators {
    private static final ValueTag[] SCALAR_TAGS = {
        ValueTag.BOOL, ValueTag.INT2, ValueTag.INT4, ValueTag.INT8, ValueTag.FLOAT4, ValueTag.FLOAT8, ValueTag.NUMERIC,
        ValueTag.TEXT, ValueTag.BYTEA, ValueTag.DATE, ValueTag.TIME, ValueTag.TIMETZ, ValueTag.TIMESTAMP,
        ValueTag.TIMESTAMPTZ, ValueTag.INTERVAL, ValueTag.UUID, ValueTag.JSON, ValueTag.JSONB, ValueTag.INET,
        ValueTag.CIDR, ValueTag.MACADDR, ValueTag.MACADDR8, ValueTag.ENUM, ValueTag.TEXT_FALLBACK,
    };

    private Generators() {
    }

    public static Arbitrary<ChangeRecord> records() {
        return Arbitraries.oneOf(begins(), commits(), heartbeats(), relations(), inserts(), updates(), deletes(),
            truncates(), sequences());
    }

    /** Records whose tuples stay small, for fuzzing many tries quickly. */
    public static Arbitrary<ChangeRecord> smallRecords() {
        return Arbitraries.oneOf(begins(), commits(), heartbeats(), relations(),
            Combinators.combine(relationIds(), smallTuples()).as(ChangeRecord.Insert::new),
            Combinators.combine(relationIds(), Arbitraries.of(OldTupleKind.KEY, OldTupleKind.FULL), smallTuples(),
                smallTuples()).as(ChangeRecord.Update::new),
            Combinators.combine(relationIds(), Arbitraries.of(OldTupleKind.KEY, OldTupleKind.FULL), smallTuples())
                .as(ChangeRecord.Delete::new),
            truncates(), sequences());
    }

    public static Arbitrary<ChangeRecord> begins() {
        return Combinators.combine(Arbitraries.longs(), lsns(), timestamps()).as(ChangeRecord.Begin::new);
    }

    public static Arbitrary<ChangeRecord> commits() {
        return Combinators.combine(Arbitraries.longs(), lsns(), lsns(), timestamps()).as(ChangeRecord.Commit::new);
    }

    public static Arbitrary<ChangeRecord> heartbeats() {
        return Combinators.combine(timestamps(), lsns()).as(ChangeRecord.Heartbeat::new);
    }

    public static Arbitrary<ChangeRecord> sequences() {
        Arbitrary<Long> values = Arbitraries.oneOf(Arbitraries.longs(),
            Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L, 1L, -1L));
        return Combinators.combine(texts(63), texts(63), values, Arbitraries.of(true, false), timestamps())
            .as(ChangeRecord.Sequence::new);
    }

    public static Arbitrary<ChangeRecord> relations() {
        Arbitrary<Column> column = Combinators.combine(texts(63), Arbitraries.integers(), texts(40),
            Arbitraries.integers().between(-1, 1_000_000), Arbitraries.of(true, false)).as(Column::new);
        return Combinators.combine(relationIds(), texts(63), texts(63), Arbitraries.of('d', 'n', 'f', 'i'),
            column.list().ofMaxSize(30)).as(ChangeRecord.Relation::new);
    }

    public static Arbitrary<ChangeRecord> inserts() {
        return Combinators.combine(relationIds(), tuples()).as(ChangeRecord.Insert::new);
    }

    public static Arbitrary<ChangeRecord> updates() {
        Arbitrary<ChangeRecord> withOld = Combinators.combine(relationIds(),
            Arbitraries.of(OldTupleKind.KEY, OldTupleKind.FULL), tuples(), tuples()).as(ChangeRecord.Update::new);
        Arbitrary<ChangeRecord> withoutOld = Combinators.combine(relationIds(), tuples())
            .as((id, t) -> new ChangeRecord.Update(id, OldTupleKind.NONE, null, t));
        return Arbitraries.oneOf(withOld, withoutOld);
    }

    public static Arbitrary<ChangeRecord> deletes() {
        return Combinators.combine(relationIds(), Arbitraries.of(OldTupleKind.KEY, OldTupleKind.FULL), tuples())
            .as(ChangeRecord.Delete::new);
    }

    public static Arbitrary<ChangeRecord> truncates() {
        return Combinators.combine(Arbitraries.of(true, false), Arbitraries.of(true, false),
            relationIds().list().ofMaxSize(20)).as(ChangeRecord.Truncate::new);
    }

    public static Arbitrary<Tuple> tuples() {
        return values().list().ofMaxSize(24).map(Tuple::new);
    }

    public static Arbitrary<Tuple> smallTuples() {
        return Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(1, Arbitraries.of(ValueTag.NULL, ValueTag.UNCHANGED_TOAST).map(Generators::marker)),
            net.jqwik.api.Tuple.of(6, Arbitraries.of(SCALAR_TAGS).flatMap(Generators::smallScalar)),
            net.jqwik.api.Tuple.of(1, arrays(true))).list().ofMaxSize(8).map(Tuple::new);
    }

    /** Any column value: markers, every scalar type, arrays. */
    public static Arbitrary<Value> values() {
        return Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(1, Arbitraries.of(ValueTag.NULL, ValueTag.UNCHANGED_TOAST).map(Generators::marker)),
            net.jqwik.api.Tuple.of(8, Arbitraries.of(SCALAR_TAGS).flatMap(Generators::scalar)),
            net.jqwik.api.Tuple.of(1, arrays(false)));
    }

    public static Arbitrary<Value> scalar(ValueTag tag) {
        switch (tag) {
            case BOOL: return Arbitraries.of(true, false).map(Value.Bool::new);
            case INT2: return Arbitraries.shorts().map(Value.Int2::new);
            case INT4: return Arbitraries.integers().map(Value.Int4::new);
            case INT8: return Arbitraries.longs().map(Value.Int8::new);
            case FLOAT4: return Arbitraries.oneOf(Arbitraries.floats(), Arbitraries.of(Float.NaN, Float.POSITIVE_INFINITY,
                Float.NEGATIVE_INFINITY, -0.0f, 0.0f, Float.MIN_VALUE, Float.MAX_VALUE, -Float.MAX_VALUE))
                .map(Value.Float4::new);
            case FLOAT8: return Arbitraries.oneOf(Arbitraries.doubles(), Arbitraries.of(Double.NaN,
                Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, 0.0, Double.MIN_VALUE, Double.MAX_VALUE))
                .map(Value.Float8::new);
            case NUMERIC: return numerics();
            case TEXT: return texts(200).map(Value.Text::new);
            case BYTEA: return byteas();
            case DATE: return Arbitraries.oneOf(Arbitraries.integers().between(-2_483_590, 2_932_896),
                Arbitraries.of(PgInfinity.DATE_POSITIVE, PgInfinity.DATE_NEGATIVE, 0, -1)).map(Value.Date::new);
            case TIME: return Arbitraries.longs().between(0, 86_400_000_000L).map(Value.Time::new);
            case TIMETZ: return Combinators.combine(Arbitraries.longs().between(0, 86_400_000_000L),
                Arbitraries.integers().between(-57_599, 57_599)).as(Value.TimeTz::new);
            case TIMESTAMP: return timestamps().map(Value.Timestamp::new);
            case TIMESTAMPTZ: return timestamps().map(Value.TimestampTz::new);
            case INTERVAL: return Combinators.combine(Arbitraries.integers(), Arbitraries.integers(), Arbitraries.longs())
                .as(Value.Interval::new);
            case UUID: return Combinators.combine(Arbitraries.longs(), Arbitraries.longs()).as(Value.Uuid::new);
            case JSON: return texts(100).map(s -> new Value.Json("{\"k\":" + quote(s) + "}"));
            case JSONB: return texts(100).map(s -> new Value.Jsonb("[" + quote(s) + ", 1.5e300, null]"));
            case INET: return inets(false);
            case CIDR: return inets(true);
            case MACADDR: return Arbitraries.longs().map(v -> new Value.Macaddr(false, v & 0xFFFF_FFFF_FFFFL));
            case MACADDR8: return Arbitraries.longs().map(v -> new Value.Macaddr(true, v));
            case ENUM: return texts(63).map(Value.EnumLabel::new);
            case TEXT_FALLBACK: return Combinators.combine(Arbitraries.integers(), texts(80)).as(Value.TextFallback::new);
            default: throw new IllegalArgumentException(tag.toString());
        }
    }

    private static Arbitrary<Value> smallScalar(ValueTag tag) {
        switch (tag) {
            case TEXT: return texts(12).map(Value.Text::new);
            case BYTEA: return Arbitraries.bytes().array(byte[].class).ofMaxSize(12).map(Value.Bytea::new);
            case NUMERIC: return Arbitraries.oneOf(
                Combinators.combine(Arbitraries.longs(), Arbitraries.integers().between(-20, 40))
                    .as((u, s) -> (Value) new Value.Numeric(BigDecimal.valueOf(u, s))),
                Arbitraries.of(NumericSpecial.NAN, NumericSpecial.POSITIVE_INFINITY, NumericSpecial.NEGATIVE_INFINITY)
                    .map(Value.NonFiniteNumeric::new));
            default: return scalar(tag);
        }
    }

    /** Arrays of up to six dimensions (mostly small), NULL elements, lower bounds other than 1. */
    public static Arbitrary<Value> arrays(boolean small) {
        Arbitrary<int[]> lengths = Arbitraries.oneOf(
            Arbitraries.just(new int[0]),
            Arbitraries.integers().between(1, small ? 3 : 12).map(n -> new int[] {n}),
            Arbitraries.integers().between(1, 3).array(int[].class).ofMinSize(2).ofMaxSize(3),
            Arbitraries.integers().between(1, 2).array(int[].class).ofMinSize(4).ofMaxSize(6));
        return Combinators.combine(Arbitraries.of(SCALAR_TAGS), lengths).flatAs((tag, dims) -> {
            int count = dims.length == 0 ? 0 : 1;
            for (int d : dims) {
                count *= d;
            }
            Arbitrary<Value> element = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(1, Arbitraries.just(Value.NULL)),
                net.jqwik.api.Tuple.of(4, small ? smallScalar(tag) : arrayElement(tag)));
            Arbitrary<int[]> lowerBounds = Arbitraries.integers().between(-5, 5).array(int[].class).ofSize(dims.length);
            return Combinators.combine(lowerBounds, element.list().ofSize(count))
                .as((lb, elements) -> new Value.Array(tag, dims, lb, elements));
        });
    }

    /**
     * An array element: any scalar but the very large ones (200 kB byteas, 20,000-digit numerics), which columns
     * carry. Up to 64 of those in one array make a record past the 4 MB frame, and jqwik's edge cases, kept in
     * memory for a whole property, combine them until a 1 GB test heap runs out.
     */
    private static Arbitrary<Value> arrayElement(ValueTag tag) {
        switch (tag) {
            case BYTEA: return Arbitraries.bytes().array(byte[].class).ofMaxSize(300).map(Value.Bytea::new);
            case NUMERIC: return Arbitraries.oneOf(
                Combinators.combine(Arbitraries.bigIntegers().between(BigInteger.TEN.pow(300).negate(), BigInteger.TEN.pow(300)),
                    Arbitraries.integers().between(-1000, 1000)).as((u, s) -> (Value) new Value.Numeric(new BigDecimal(u, s))),
                Arbitraries.of(NumericSpecial.NAN, NumericSpecial.POSITIVE_INFINITY, NumericSpecial.NEGATIVE_INFINITY)
                    .map(Value.NonFiniteNumeric::new));
            default: return scalar(tag);
        }
    }

    /** Valid UTF-16 text (no unpaired surrogates, no NUL), often with non-BMP characters. */
    public static Arbitrary<String> texts(int maxCodePoints) {
        Arbitrary<Integer> codePoint = Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(6, Arbitraries.integers().between(0x20, 0x7E)),
            net.jqwik.api.Tuple.of(2, Arbitraries.integers().between(0x80, 0xD7FF)),
            net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(0xE000, 0xFFFF)),
            net.jqwik.api.Tuple.of(2, Arbitraries.integers().between(0x10000, 0x10FFFF)),
            net.jqwik.api.Tuple.of(1, Arbitraries.of(0x1, 0x7F, 0x80, 0x7FF, 0x800, 0xFFFF, 0x1F600, 0x10FFFF)));
        return codePoint.list().ofMaxSize(maxCodePoints).map(cps -> {
            StringBuilder text = new StringBuilder();
            cps.forEach(text::appendCodePoint);
            return text.toString();
        });
    }

    public static Arbitrary<Long> timestamps() {
        return Arbitraries.oneOf(Arbitraries.longs(), Arbitraries.of(PgInfinity.TIMESTAMP_POSITIVE,
            PgInfinity.TIMESTAMP_NEGATIVE, PgInfinity.TIMESTAMP_POSITIVE - 1, PgInfinity.TIMESTAMP_NEGATIVE + 1, 0L,
            -1L, 1L, -210_866_803_200_000_000L));
    }

    private static Arbitrary<Long> lsns() {
        return Arbitraries.oneOf(Arbitraries.longs(), Arbitraries.of(0L, -1L, 0x16_B374_D848L));
    }

    private static Arbitrary<Integer> relationIds() {
        return Arbitraries.integers();
    }

    private static Arbitrary<Value> numerics() {
        Arbitrary<Value> finite = Combinators.combine(
            Arbitraries.bigIntegers().between(BigInteger.TEN.pow(300).negate(), BigInteger.TEN.pow(300)),
            Arbitraries.integers().between(-1000, 1000)).as((u, s) -> new Value.Numeric(new BigDecimal(u, s)));
        Arbitrary<Value> edges = Arbitraries.of("0", "0.00", "-0.000", "1E+20", "-1E-1000", "0.000000000000000000001",
            "123456789012345678901234567890.123456789012345678901234567890", "9223372036854775807",
            "-9223372036854775808", "9223372036854775808", "127", "128", "-128", "-129")
            .map(s -> new Value.Numeric(new BigDecimal(s)));
        Arbitrary<Value> huge = Arbitraries.integers().between(1000, 20000)
            .map(digits -> new Value.Numeric(new BigDecimal(BigInteger.TEN.pow(digits).subtract(BigInteger.ONE), 16383)));
        Arbitrary<Value> special = Arbitraries.of(NumericSpecial.NAN, NumericSpecial.POSITIVE_INFINITY,
            NumericSpecial.NEGATIVE_INFINITY).map(Value.NonFiniteNumeric::new);
        Arbitrary<Value> small = Combinators.combine(Arbitraries.longs(), Arbitraries.integers().between(-20, 40))
            .as((u, s) -> new Value.Numeric(BigDecimal.valueOf(u, s)));
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(4, finite), net.jqwik.api.Tuple.of(2, edges),
            net.jqwik.api.Tuple.of(1, huge), net.jqwik.api.Tuple.of(2, special), net.jqwik.api.Tuple.of(4, small));
    }

    private static Arbitrary<Value> byteas() {
        Arbitrary<byte[]> usual = Arbitraries.bytes().array(byte[].class).ofMaxSize(300);
        Arbitrary<byte[]> large = Arbitraries.integers().between(60_000, 200_000).map(n -> {
            byte[] bytes = new byte[n];
            new java.util.Random(n).nextBytes(bytes);
            return bytes;
        });
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(30, usual), net.jqwik.api.Tuple.of(1, large))
            .map(Value.Bytea::new);
    }

    private static Arbitrary<Value> inets(boolean cidr) {
        return Arbitraries.of(4, 16).flatMap(length -> Combinators.combine(
            Arbitraries.bytes().array(byte[].class).ofSize(length),
            Arbitraries.integers().between(0, length * 8)).as((address, bits) ->
            new Value.Inet(cidr, cidr ? network(address, bits) : address, bits)));
    }

    /** Zeroes the host bits, as a cidr requires. */
    public static byte[] network(byte[] address, int bits) {
        byte[] network = address.clone();
        for (int i = 0; i < network.length; i++) {
            int keep = Math.max(0, Math.min(8, bits - 8 * i));
            network[i] &= (byte) (0xFF00 >> keep);
        }
        return network;
    }

    private static Value marker(ValueTag tag) {
        return tag == ValueTag.NULL ? Value.NULL : Value.UNCHANGED_TOAST;
    }

    private static String quote(String s) {
        List<String> parts = new ArrayList<>();
        s.codePoints().forEach(cp -> parts.add(cp == '"' || cp == '\\' ? "\\" + (char) cp : new String(Character.toChars(cp))));
        return "\"" + String.join("", parts) + "\"";
    }
}
