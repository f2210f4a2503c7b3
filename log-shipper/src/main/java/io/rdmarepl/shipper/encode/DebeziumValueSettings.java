package io.rdmarepl.shipper.encode;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Debezium connector properties the encoding in this package relies on. The capture pipeline merges
 * {@link #properties()} into the engine configuration last, so no user setting can weaken them: each one is
 * chosen so that Debezium hands the encoder a value from which PostgreSQL's exact value can be rebuilt.
 * Every choice is checked by {@code EncodeTypesIT} against a real server and a real engine.
 *
 * <table>
 *   <caption>Properties and why</caption>
 *   <tr><th>property</th><th>value</th><th>why</th></tr>
 *   <tr><td>decimal.handling.mode</td><td>string</td><td>numeric as its plain text: every digit and the
 *       scale kept, and {@code NaN}/{@code Infinity}/{@code -Infinity} representable ({@code precise} turns them
 *       into nulls, {@code double} rounds); money as a plain decimal string</td></tr>
 *   <tr><td>time.precision.mode</td><td>microseconds</td><td>date as days, time and timestamp as
 *       microseconds: PostgreSQL's own resolution, never truncated to milliseconds</td></tr>
 *   <tr><td>binary.handling.mode</td><td>bytes</td><td>bytea as the raw bytes (zero bytes included)</td></tr>
 *   <tr><td>interval.handling.mode</td><td>string</td><td>ISO-8601 {@code PnYnMnDTnHnMnS}: months, days and
 *       microseconds stay separate ({@code numeric} folds months into 30.4375-day microseconds)</td></tr>
 *   <tr><td>hstore.handling.mode</td><td>map</td><td>unused in practice: {@link ExactTextConverter} takes hstore
 *       columns and delivers PostgreSQL's text form</td></tr>
 *   <tr><td>include.unknown.datatypes</td><td>true</td><td>types Debezium does not know (tsquery, pg_lsn,
 *       extension types...) arrive as their text instead of being dropped from the event</td></tr>
 *   <tr><td>column.propagate.source.type</td><td>.*</td><td>each field's schema names its source type, used to
 *       type a column the catalog no longer has (dropped since the event was written)</td></tr>
 *   <tr><td>unavailable.value.placeholder</td><td>{@value #UNCHANGED_TOAST_PLACEHOLDER}</td><td>what Debezium puts
 *       in place of an unchanged TOASTed value: this string for text-like types, its UTF-8 bytes for bytea;
 *       {@link ExactTextConverter} maps the markers of array and hstore columns to the same string. The encoder
 *       turns it into {@code putUnchangedToast()} (only in an Update's new tuple, the only place pgoutput sends
 *       unchanged TOAST)</td></tr>
 *   <tr><td>converters</td><td>{@value #CONVERTER_NAME}</td><td>{@link ExactTextConverter}: arrays, bit/varbit,
 *       geometric types and hstore as PostgreSQL's text, where Debezium's own conversion is lossy or absent</td></tr>
 *   <tr><td>skipped.operations</td><td>none</td><td>the default {@code t} drops TRUNCATE</td></tr>
 *   <tr><td>tombstones.on.delete</td><td>false</td><td>a delete is one event, no extra null-valued record</td></tr>
 *   <tr><td>event.processing.failure.handling.mode</td><td>fail</td><td>{@code warn}/{@code skip} would drop
 *       changes silently</td></tr>
 *   <tr><td>field.name.adjustment.mode</td><td>none</td><td>field names are the column names, byte for byte</td></tr>
 * </table>
 */
public final class DebeziumValueSettings {
    /**
     * The unchanged-TOAST placeholder. It starts and ends with U+0000, which no PostgreSQL text, varchar, json, xml
     * or other string value can hold, so no real value is mistaken for it: a value that merely read like the
     * placeholder used to be taken for one, and an update writing it left the replica's old value in place. (A
     * bytea is handed over as bytes and can still hold these exact bytes.)
     */
    public static final String UNCHANGED_TOAST_PLACEHOLDER = "\u0000rdmarepl:unchanged-toast:7d0c4b1e9a2f\u0000";
    /** The name the converter is registered under in {@code converters}. */
    public static final String CONVERTER_NAME = "rdmareplexact";

    private static final Map<String, String> PROPERTIES = build();

    private DebeziumValueSettings() {
    }

    /** The properties, immutable, in a stable order. */
    public static Map<String, String> properties() {
        return PROPERTIES;
    }

    private static Map<String, String> build() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("decimal.handling.mode", "string");
        p.put("time.precision.mode", "microseconds");
        p.put("binary.handling.mode", "bytes");
        p.put("interval.handling.mode", "string");
        p.put("hstore.handling.mode", "map");
        p.put("money.fraction.digits", "2");
        p.put("include.unknown.datatypes", "true");
        p.put("column.propagate.source.type", ".*");
        p.put("unavailable.value.placeholder", UNCHANGED_TOAST_PLACEHOLDER);
        p.put("converters", CONVERTER_NAME);
        p.put(CONVERTER_NAME + ".type", ExactTextConverter.class.getName());
        p.put("skipped.operations", "none");
        p.put("tombstones.on.delete", "false");
        p.put("event.processing.failure.handling.mode", "fail");
        p.put("field.name.adjustment.mode", "none");
        return java.util.Collections.unmodifiableMap(p);
    }
}
