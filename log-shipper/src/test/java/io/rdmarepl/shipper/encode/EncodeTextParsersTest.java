package io.rdmarepl.shipper.encode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.format.NumericSpecial;
import io.rdmarepl.format.PgInfinity;
import io.rdmarepl.format.ValueTag;
import io.rdmarepl.format.codec.RecordDecoder;
import io.rdmarepl.format.codec.RecordEncoder;
import io.rdmarepl.format.codec.RowWriter;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.format.record.ChangeRecords;
import io.rdmarepl.format.record.Value;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The text parsers behind the encoder: arrays, numerics, Debezium's temporal forms. */
class EncodeTextParsersTest {
    private static Value one(Consumer<RowWriter> put) {
        ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
        RowWriter w = new RecordEncoder().startInsert(buffer, 0, buffer.capacity(), 7);
        put.accept(w);
        int length = w.finish();
        return ((ChangeRecord.Insert) ChangeRecords.decode(new RecordDecoder(), buffer, 0, length)).newTuple().values().get(0);
    }

    @Test
    void arrays() {
        ArrayText arrays = new ArrayText();
        assertThat(one(w -> arrays.put(w, "{1,NULL,3}", ValueKind.INT4)))
            .isEqualTo(Value.Array.of(ValueTag.INT4, Arrays.asList(new Value.Int4(1), Value.NULL, new Value.Int4(3))));
        assertThat(one(w -> arrays.put(w, "[-1:0][2:3]={{1,2},{3,4}}", ValueKind.INT8)))
            .isEqualTo(new Value.Array(ValueTag.INT8, new int[] {2, 2}, new int[] {-1, 2},
                List.of(new Value.Int8(1), new Value.Int8(2), new Value.Int8(3), new Value.Int8(4))));
        assertThat(one(w -> arrays.put(w, "{\"a\\\\b\",\"NULL\",null,\" x \"}", ValueKind.TEXT)))
            .isEqualTo(Value.Array.of(ValueTag.TEXT, Arrays.asList(new Value.Text("a\\b"), new Value.Text("NULL"),
                Value.NULL, new Value.Text(" x "))));
        assertThat(one(w -> arrays.put(w, "{t,f}", ValueKind.BOOL)))
            .isEqualTo(Value.Array.of(ValueTag.BOOL, List.of(new Value.Bool(true), new Value.Bool(false))));
        assertThat(one(w -> arrays.put(w, "{NaN,-Infinity,-0}", ValueKind.FLOAT8)))
            .isEqualTo(Value.Array.of(ValueTag.FLOAT8, List.of(new Value.Float8(Double.NaN),
                new Value.Float8(Double.NEGATIVE_INFINITY), new Value.Float8(-0.0))));
        assertThat(one(w -> arrays.put(w, "{}", ValueKind.UUID))).isEqualTo(Value.Array.of(ValueTag.UUID, List.of()));
        for (String bad : List.of("{1,2", "{{1,2},{3}}", "[1:3]={1,2}", "{1,,2}", "1,2")) {
            assertThatThrownBy(() -> one(w -> arrays.put(w, bad, ValueKind.INT4))).as(bad)
                .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void numerics() {
        assertThat(one(w -> NumericText.put(w, "-12.3400"))).isEqualTo(new Value.Numeric(new BigDecimal("-12.3400")));
        assertThat(one(w -> NumericText.put(w, "0"))).isEqualTo(new Value.Numeric(BigDecimal.ZERO));
        String big = "-98765432109876543210987654321.000000000000000000001";
        assertThat(one(w -> NumericText.put(w, big))).isEqualTo(new Value.Numeric(new BigDecimal(big)));
        assertThat(one(w -> NumericText.put(w, "NAN"))).isEqualTo(new Value.NonFiniteNumeric(NumericSpecial.NAN));
        assertThat(one(w -> NumericText.put(w, "POSITIVE_INFINITY")))
            .isEqualTo(new Value.NonFiniteNumeric(NumericSpecial.POSITIVE_INFINITY));
        assertThat(one(w -> NumericText.put(w, "-Infinity")))
            .isEqualTo(new Value.NonFiniteNumeric(NumericSpecial.NEGATIVE_INFINITY));
    }

    @Test
    void temporals() {
        assertThat(TemporalText.timestampTz("1970-01-01T00:00:00.000001Z")).isEqualTo(1);
        assertThat(TemporalText.timestampTz("1969-12-31T23:59:59.999999Z")).isEqualTo(-1);
        assertThat(TemporalText.timestampTz("+10000-01-01T00:00:00Z")).isEqualTo(253402300800L * 1_000_000L);
        assertThat(TemporalText.timestampTz("infinity")).isEqualTo(PgInfinity.TIMESTAMP_POSITIVE);
        assertThat(TemporalText.timestamp(TemporalText.DEBEZIUM_TIMESTAMP_NEGATIVE_INFINITY)).isEqualTo(PgInfinity.TIMESTAMP_NEGATIVE);
        assertThat(TemporalText.date(TemporalText.DEBEZIUM_DATE_POSITIVE_INFINITY)).isEqualTo(PgInfinity.DATE_POSITIVE);
        assertThat(TemporalText.date(-2_440_588)).isEqualTo(-2_440_588);
        TemporalText t = new TemporalText();
        t.interval("P-1Y2M-3DT-4H5M-6.5S");
        assertThat(new long[] {t.months, t.days, t.micros})
            .containsExactly(-10, -3, -4 * 3_600_000_000L + 5 * 60_000_000L - 6_500_000L);
        assertThat(t.timeTzMicros("04:41:12.345678Z")).isEqualTo(((4 * 60 + 41) * 60 + 12) * 1_000_000L + 345_678);
        assertThat(t.offsetSeconds).isZero();
    }

    @Test
    void settingsAreImmutableAndComplete() {
        assertThat(DebeziumValueSettings.properties())
            .containsEntry("decimal.handling.mode", "string")
            .containsEntry("skipped.operations", "none")
            .containsEntry("rdmareplexact.type", ExactTextConverter.class.getName());
        assertThatThrownBy(() -> DebeziumValueSettings.properties().put("x", "y"))
            .isInstanceOf(UnsupportedOperationException.class);
    }
}
