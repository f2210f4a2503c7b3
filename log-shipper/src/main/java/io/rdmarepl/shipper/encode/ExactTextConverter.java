package io.rdmarepl.shipper.encode;

import io.debezium.connector.postgresql.UnchangedToastedReplicationMessageColumn;
import io.debezium.spi.converter.CustomConverter;
import io.debezium.spi.converter.RelationalColumn;
import java.nio.charset.StandardCharsets;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetTime;
import java.util.Calendar;
import java.util.GregorianCalendar;
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
 *   <li>timetz: the snapshot's text as read ({@code 10:11:12.345678+05:30}, {@code 24:00:00-15:59:59}; Debezium's
 *       own conversion moves it to UTC and turns offsets with seconds into NULL); the stream's value, which
 *       Debezium's decoder has moved to UTC before any converter runs, as {@code 04:41:12.345678+00}.</li>
 *   <li>date: days since 1970 as Debezium's own conversion gives them, except that BC dates stay BC
 *       ({@link #toEpochDay}).</li>
 * </ul>
 *
 * Debezium's unchanged-TOAST markers for these columns become {@link DebeziumValueSettings#UNCHANGED_TOAST_PLACEHOLDER}.
 * Registered by {@link DebeziumValueSettings}; Debezium instantiates it reflectively (public no-arg constructor).
 */
public final class ExactTextConverter implements CustomConverter<SchemaBuilder, RelationalColumn> {
    private static final Set<String> TEXT_TYPES = Set.of("bit", "varbit", "bit varying", "point", "box", "circle",
        "line", "lseg", "path", "polygon", "hstore", "timestamp", "timestamp without time zone", "timetz",
        "time with time zone");
    private static final Set<String> DATE_TYPES = Set.of("date");
    private static final Set<String> TIMESTAMPTZ_TYPES = Set.of("timestamptz", "timestamp with time zone");

    @Override
    public void configure(Properties properties) {
        // nothing to configure
    }

    /**
     * Domains come with their own name and their base type's JDBC type: a domain over date is Types.DATE; one over
     * timestamp or timestamptz is Types.TIMESTAMP (both), taken as text here too ({@link #toText} keeps which it is:
     * an Instant or PostgreSQL's text without offset for timestamp, an OffsetDateTime or text with one for timestamptz).
     */
    @Override
    public void converterFor(RelationalColumn column, ConverterRegistration<SchemaBuilder> registration) {
        String name = column.typeName() == null ? "" : column.typeName().toLowerCase(Locale.ROOT);
        if (DATE_TYPES.contains(name) || column.jdbcType() == Types.DATE) {
            registration.register(SchemaBuilder.int32().optional(), ExactTextConverter::toEpochDay);
        } else if (handles(column.jdbcType(), column.typeName())
            || column.jdbcType() == Types.TIMESTAMP && !TIMESTAMPTZ_TYPES.contains(name)) {
            registration.register(SchemaBuilder.string().optional(), ExactTextConverter::toText);
        }
    }

    /**
     * Days since 1970 of a date as Debezium's stream (a LocalDate, exact) or its snapshot (the JDBC driver's
     * java.sql.Date) hands it over. Debezium turns the java.sql.Date into a LocalDate through its year, month and
     * day without the era: 4714-11-24 BC arrived as 4714-11-24 AD. Here the era is read back with the driver's
     * own calendar (hybrid Julian/Gregorian, JVM zone), so BC dates stay BC.
     */
    static Object toEpochDay(Object data) {
        if (data == null) {
            return null;
        }
        if (data instanceof LocalDate date) {
            return (int) date.toEpochDay();
        }
        if (data instanceof java.util.Date date) {
            long millis = date.getTime();
            if (millis == org.postgresql.PGStatement.DATE_POSITIVE_INFINITY) {
                return io.rdmarepl.format.PgInfinity.DATE_POSITIVE;
            }
            if (millis == org.postgresql.PGStatement.DATE_NEGATIVE_INFINITY) {
                return io.rdmarepl.format.PgInfinity.DATE_NEGATIVE;
            }
            GregorianCalendar calendar = new GregorianCalendar();
            calendar.setTime(date);
            int year = calendar.get(Calendar.YEAR);
            return (int) LocalDate.of(calendar.get(Calendar.ERA) == GregorianCalendar.BC ? 1 - year : year,
                calendar.get(Calendar.MONTH) + 1, calendar.get(Calendar.DAY_OF_MONTH)).toEpochDay();
        }
        if (data instanceof Number days) {
            return days.intValue();
        }
        throw new IllegalArgumentException("date column value of unexpected class " + data.getClass().getName() + ": " + data);
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
        if (data instanceof OffsetTime time) {
            return TemporalText.timeTzText(time);
        }
        if (data instanceof java.time.OffsetDateTime time) { // a domain over timestamptz, streamed: Debezium's form
            return java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(time);
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
