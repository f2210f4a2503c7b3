package io.rdmarepl.shipper.encode;

import io.debezium.connector.postgresql.UnchangedToastedReplicationMessageColumn;
import io.debezium.spi.converter.CustomConverter;
import io.debezium.spi.converter.RelationalColumn;
import java.nio.charset.StandardCharsets;
import java.sql.Types;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.postgresql.jdbc.PgArray;
import org.postgresql.util.HStoreConverter;
import org.postgresql.util.PGobject;

/**
 * A Debezium {@link CustomConverter} that hands over PostgreSQL's own text form for the column types whose
 * built-in Debezium conversion loses information, so that {@link ChangeEventEncoder} can rebuild them exactly:
 *
 * <ul>
 *   <li>every array: Debezium builds a flat {@code List} that loses lower bounds and dimensions, mangles
 *       timestamptz/timetz elements through the JVM time zone, and has no schema at all for
 *       money[], interval[], varbit[], xml[], point[], name[] and arrays of domains (the column silently
 *       disappears from the event). Here the array is its text ({@code {1,NULL,3}}, {@code [0:1]={a,b}});
 *       the encoder parses it.</li>
 *   <li>bit and varbit: Debezium packs the bits into bytes without their count (trailing zero bits lost).</li>
 *   <li>point, box, circle, line, lseg, path, polygon: Debezium gives point as a struct and the others not at all.</li>
 *   <li>hstore: Debezium gives a map or JSON; here the hstore text.</li>
 *   <li>timestamp: Debezium's microseconds since 1970 saturate and wrap past 294247-01-10 04:00:54.775807, which
 *       PostgreSQL's range (to 294276-12-31) goes beyond: {@code 294276-12-31 23:59:59} arrived as infinity. Here
 *       the text in ISO DateStyle ({@code 2024-01-02 03:04:05.123456}, {@code 0044-03-15 12:00:00 BC},
 *       {@code infinity}): the snapshot's text as read, the stream's Instant formatted back.</li>
 * </ul>
 *
 * Debezium's unchanged-TOAST markers for these columns become {@link DebeziumValueSettings#UNCHANGED_TOAST_PLACEHOLDER}.
 * Registered by {@link DebeziumValueSettings}; Debezium instantiates it reflectively (public no-arg constructor).
 */
public final class ExactTextConverter implements CustomConverter<SchemaBuilder, RelationalColumn> {
    private static final Set<String> TEXT_TYPES = Set.of("bit", "varbit", "bit varying", "point", "box", "circle",
        "line", "lseg", "path", "polygon", "hstore", "timestamp", "timestamp without time zone");

    @Override
    public void configure(Properties properties) {
        // nothing to configure
    }

    @Override
    public void converterFor(RelationalColumn column, ConverterRegistration<SchemaBuilder> registration) {
        if (handles(column.jdbcType(), column.typeName())) {
            registration.register(SchemaBuilder.string().optional(), ExactTextConverter::toText);
        }
    }

    /** True for the columns this converter takes over. */
    static boolean handles(int jdbcType, String typeName) {
        if (jdbcType == Types.ARRAY) {
            return true;
        }
        if (typeName == null) {
            return false;
        }
        String name = typeName.toLowerCase(Locale.ROOT);
        return name.startsWith("_") || name.endsWith("[]") || TEXT_TYPES.contains(name);
    }

    /** PostgreSQL's text form of {@code data} as the JDBC driver or the pgoutput decoder delivered it. */
    static Object toText(Object data) {
        if (data == null) {
            return null;
        }
        if (UnchangedToastedReplicationMessageColumn.isUnchangedToastedValue(data)) {
            return DebeziumValueSettings.UNCHANGED_TOAST_PLACEHOLDER;
        }
        if (data instanceof String text) {
            return text;
        }
        if (data instanceof Instant instant) {
            return TemporalText.timestampText(instant);
        }
        if (data instanceof PgArray array) {
            return array.toString();
        }
        if (data instanceof PGobject object) {
            return object.getValue();
        }
        if (data instanceof Map<?, ?> map) {
            return HStoreConverter.toString(map);
        }
        if (data instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        return data.toString();
    }
}
