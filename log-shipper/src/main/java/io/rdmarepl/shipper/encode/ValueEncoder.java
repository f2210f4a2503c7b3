package io.rdmarepl.shipper.encode;

import io.rdmarepl.format.codec.RowWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes one Debezium field value as the column's log-format value. What each type becomes, given
 * {@link DebeziumValueSettings} and {@link ExactTextConverter} (Debezium 3.6.1, pgoutput):
 *
 * <table>
 *   <caption>PostgreSQL type → Debezium value → log-format value</caption>
 *   <tr><th>type</th><th>Debezium hands us</th><th>wire</th><th>exact?</th></tr>
 *   <tr><td>bool, int2, int4, int8</td><td>Boolean, Short, Integer, Long</td><td>BOOL, INT2/4/8</td><td>yes</td></tr>
 *   <tr><td>float4, float8</td><td>Float, Double (parsed from PostgreSQL's shortest round-trip text)</td>
 *       <td>FLOAT4/8 raw bits</td><td>yes, NaN, ±Infinity and -0 included</td></tr>
 *   <tr><td>numeric</td><td>plain String with the column's scale; NAN / POSITIVE_INFINITY / NEGATIVE_INFINITY</td>
 *       <td>NUMERIC (unscaled two's complement + scale) or its special</td><td>yes</td></tr>
 *   <tr><td>text, varchar, bpchar, name, "char"</td><td>String (bpchar padded)</td><td>TEXT</td><td>yes</td></tr>
 *   <tr><td>bytea</td><td>ByteBuffer</td><td>BYTEA</td><td>yes</td></tr>
 *   <tr><td>date</td><td>Integer epoch days (ExactTextConverter: BC dates of a snapshot keep their era);
 *       infinities as Debezium's sentinels or {@code PgInfinity}</td><td>DATE, {@code PgInfinity}</td><td>yes</td></tr>
 *   <tr><td>time</td><td>Long micros (24:00:00 = 86400000000)</td><td>TIME</td><td>yes</td></tr>
 *   <tr><td>timetz</td><td>PostgreSQL's text (ExactTextConverter): as stored in a snapshot; in the stream already
 *       moved to UTC ({@code 04:41:12.345678+00} for 10:11:12.345678+05:30)</td>
 *       <td>TIMETZ</td><td>snapshot yes; stream <b>no</b>: the same instant, but the zone offset is lost by
 *       Debezium's pgoutput decoder before any converter runs, and an offset with seconds stops it</td></tr>
 *   <tr><td>timestamp</td><td>PostgreSQL's ISO text (ExactTextConverter; Debezium's own Long micros wrap past
 *       294247 AD)</td><td>TIMESTAMP, {@code PgInfinity}; past 294247-01-10 (beyond micros since 1970 in a long)
 *       TEXT_FALLBACK</td><td>yes</td></tr>
 *   <tr><td>timestamptz</td><td>ISO String in UTC, or "infinity"/"-infinity"</td><td>TIMESTAMPTZ micros UTC; past
 *       294247-01-10 TEXT_FALLBACK {@code 294276-12-31 23:59:59.999999+00}</td><td>yes</td></tr>
 *   <tr><td>interval</td><td>ISO-8601 String {@code P1Y2M-3DT4H5M6.789012S}</td><td>INTERVAL months/days/micros</td><td>yes</td></tr>
 *   <tr><td>uuid, json, jsonb</td><td>String (jsonb as PostgreSQL normalised it)</td><td>UUID, JSON, JSONB</td><td>yes</td></tr>
 *   <tr><td>inet, cidr, macaddr, macaddr8</td><td>String</td><td>INET, CIDR, MACADDR, MACADDR8</td><td>yes</td></tr>
 *   <tr><td>enum</td><td>String label</td><td>ENUM</td><td>yes</td></tr>
 *   <tr><td>domain</td><td>as its base type</td><td>as its base type</td><td>yes</td></tr>
 *   <tr><td>arrays of the types above except date/time ones</td><td>array text (ExactTextConverter)</td>
 *       <td>ARRAY, any dimensions and lower bounds, NULL elements</td><td>yes</td></tr>
 *   <tr><td>other arrays (timestamptz[], money[], interval[], ...)</td><td>array text</td>
 *       <td>TEXT_FALLBACK (array type OID)</td><td>yes (text as the walsender wrote it)</td></tr>
 *   <tr><td>money</td><td>plain decimal String ({@code -1234.56})</td><td>TEXT_FALLBACK</td><td>yes with
 *       lc_monetary using '.' decimals and money.fraction.digits = 2 (Debezium strips the currency format)</td></tr>
 *   <tr><td>bit, varbit, point, hstore</td><td>PostgreSQL text (ExactTextConverter)</td><td>TEXT_FALLBACK</td><td>yes</td></tr>
 *   <tr><td>box, circle, line, lseg, path, polygon</td><td>text re-rendered by the JDBC driver from doubles
 *       ({@code (3.0,4.0),(1.0,2.0)})</td><td>TEXT_FALLBACK</td><td>same values (doubles round-trip), not the same
 *       characters</td></tr>
 *   <tr><td>tsvector, ranges, xml, oid, pg_lsn, other/extension types</td><td>String, Long or UTF-8 bytes of the text</td>
 *       <td>TEXT_FALLBACK</td><td>yes</td></tr>
 * </table>
 *
 * Unchanged TOASTed values (Update/Delete only) arrive as {@link DebeziumValueSettings#UNCHANGED_TOAST_PLACEHOLDER}
 * (or its bytes) and are written as {@code putUnchangedToast()}. Reused by one thread.
 */
final class ValueEncoder {
    private static final byte[] PLACEHOLDER_BYTES =
        DebeziumValueSettings.UNCHANGED_TOAST_PLACEHOLDER.getBytes(StandardCharsets.UTF_8);
    private static final ByteBuffer PLACEHOLDER_BUFFER = ByteBuffer.wrap(PLACEHOLDER_BYTES).asReadOnlyBuffer();

    private final TemporalText temporal = new TemporalText();
    private final ArrayText arrays = new ArrayText();

    /**
     * Writes {@code value} of {@code column}. {@code toastPossible} is true in Update and Delete tuples, the only
     * place an unchanged-TOAST placeholder can appear.
     */
    void put(RowWriter w, ColumnInfo column, Object value, boolean toastPossible) {
        if (value == null) {
            w.putNull();
            return;
        }
        if (toastPossible && isPlaceholder(value)) {
            w.putUnchangedToast();
            return;
        }
        switch (column.kind()) {
            case BOOL -> w.putBool((Boolean) value);
            case INT2 -> w.putInt2(((Number) value).shortValue());
            case INT4 -> w.putInt4(((Number) value).intValue());
            case INT8 -> w.putInt8(((Number) value).longValue());
            case FLOAT4 -> w.putFloat4(((Number) value).floatValue());
            case FLOAT8 -> w.putFloat8(((Number) value).doubleValue());
            case NUMERIC -> NumericText.put(w, text(value));
            case TEXT -> w.putText(text(value));
            case BYTEA -> putBytes(w, value);
            case DATE -> w.putDate(TemporalText.date(((Number) value).intValue()));
            case TIME -> w.putTime(((Number) value).longValue());
            case TIMETZ -> {
                long micros = temporal.timeTzMicros(text(value));
                w.putTimeTz(micros, temporal.offsetSeconds);
            }
            case TIMESTAMP -> {
                if (value instanceof Number micros) {
                    w.putTimestamp(TemporalText.timestamp(micros.longValue()));
                } else if (temporal.timestampMicros(text(value))) {
                    w.putTimestamp(temporal.micros);
                } else {
                    w.putTextFallback(column.typeOid(), text(value));
                }
            }
            case TIMESTAMPTZ -> {
                String text = text(value);
                long micros = TemporalText.timestampTz(text);
                if (micros != TemporalText.BEYOND_MICROS) {
                    w.putTimestampTz(micros);
                } else {
                    w.putTextFallback(column.typeOid(), TemporalText.timestampTzText(text));
                }
            }
            case INTERVAL -> {
                temporal.interval(text(value));
                w.putInterval(temporal.months, temporal.days, temporal.micros);
            }
            case UUID -> w.putUuid(text(value));
            case JSON -> w.putJson(text(value));
            case JSONB -> w.putJsonb(text(value));
            case INET -> w.putInet(text(value));
            case CIDR -> w.putCidr(text(value));
            case MACADDR -> w.putMacaddr(text(value));
            case MACADDR8 -> w.putMacaddr8(text(value));
            case ENUM -> w.putEnum(text(value));
            case ARRAY -> {
                String text = text(value);
                if (column.elementKind() != null && column.elementKind().typedArrayElement()) {
                    arrays.put(w, text, column.elementKind());
                } else {
                    w.putTextFallback(column.typeOid(), text);
                }
            }
            case FALLBACK -> w.putTextFallback(column.typeOid(), text(value));
            default -> throw new IllegalStateException("unhandled kind " + column.kind());
        }
    }

    private static String text(Object value) {
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof ByteBuffer b) {
            byte[] copy = new byte[b.remaining()];
            b.duplicate().get(copy);
            return new String(copy, StandardCharsets.UTF_8);
        }
        if (value instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        return value.toString();
    }

    private static void putBytes(RowWriter w, Object value) {
        if (value instanceof ByteBuffer b) {
            w.putBytes(b, b.position(), b.remaining());
        } else {
            w.putBytes((byte[]) value);
        }
    }

    private static boolean isPlaceholder(Object value) {
        if (value instanceof String s) {
            return s.length() == DebeziumValueSettings.UNCHANGED_TOAST_PLACEHOLDER.length()
                && s.equals(DebeziumValueSettings.UNCHANGED_TOAST_PLACEHOLDER);
        }
        if (value instanceof ByteBuffer b) {
            return b.remaining() == PLACEHOLDER_BYTES.length && b.equals(PLACEHOLDER_BUFFER);
        }
        if (value instanceof byte[] bytes) {
            return Arrays.equals(bytes, PLACEHOLDER_BYTES);
        }
        return false;
    }
}
