package io.rdmarepl.shipper.encode;

import io.rdmarepl.format.PgInfinity;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Turns Debezium's temporal values (with {@code time.precision.mode=microseconds} and
 * {@code interval.handling.mode=string}) into the log-format's units. Reused by one encoder thread: the
 * two-part results (timetz, interval) are left in fields instead of allocated.
 *
 * <p>Debezium 3.6.1's infinity sentinels, found by experiment: date {@code infinity} is day
 * {@code -5877611-06-21}, {@code -infinity} day {@code -5877611-06-22} when streaming, and in snapshot reads the
 * JDBC driver's infinite {@code java.sql.Date}s converted in the JVM's zone (all outside PostgreSQL's date range);
 * timestamp {@code infinity} is 9223372036825200000 µs and {@code -infinity} -9223372036832400000 µs;
 * timestamptz arrives as the strings {@code infinity} / {@code -infinity}. All map to {@link PgInfinity}.
 */
final class TemporalText {
    static final int DEBEZIUM_DATE_POSITIVE_INFINITY = (int) LocalDate.parse("-5877611-06-21").toEpochDay();
    static final int DEBEZIUM_DATE_NEGATIVE_INFINITY = (int) LocalDate.parse("-5877611-06-22").toEpochDay();
    static final long DEBEZIUM_TIMESTAMP_POSITIVE_INFINITY = 9223372036825200000L;
    static final long DEBEZIUM_TIMESTAMP_NEGATIVE_INFINITY = -9223372036832400000L;

    private static final long MICROS_PER_SECOND = 1_000_000L;
    private static final long MICROS_PER_MINUTE = 60 * MICROS_PER_SECOND;
    private static final long MICROS_PER_HOUR = 60 * MICROS_PER_MINUTE;

    /** Zone offset (seconds east of UTC) of the last {@link #timeTzMicros}. */
    int offsetSeconds;
    /** Months, days and micros of the last {@link #interval}. */
    int months;
    int days;
    long micros;

    /** 4714-11-24 BC, PostgreSQL's first date; anything earlier is a Debezium infinity sentinel. */
    private static final int PG_FIRST_DATE = -2_440_588;

    static int date(int debeziumDays) {
        if (debeziumDays >= PG_FIRST_DATE || debeziumDays == PgInfinity.DATE_NEGATIVE) {
            return debeziumDays;
        }
        if (debeziumDays == DEBEZIUM_DATE_POSITIVE_INFINITY) {
            return PgInfinity.DATE_POSITIVE;
        }
        if (debeziumDays == DEBEZIUM_DATE_NEGATIVE_INFINITY) {
            return PgInfinity.DATE_NEGATIVE;
        }
        // snapshot reads: the JDBC driver's java.sql.Date infinities, turned into days in the JVM's zone
        if (debeziumDays == snapshotDays(org.postgresql.PGStatement.DATE_POSITIVE_INFINITY)) {
            return PgInfinity.DATE_POSITIVE;
        }
        if (debeziumDays == snapshotDays(org.postgresql.PGStatement.DATE_NEGATIVE_INFINITY)) {
            return PgInfinity.DATE_NEGATIVE;
        }
        throw new IllegalArgumentException("date of epoch day " + debeziumDays
            + " is before PostgreSQL's first date and no known infinity sentinel");
    }

    private static int snapshotDays(long jdbcMillis) {
        return (int) new java.sql.Date(jdbcMillis).toLocalDate().toEpochDay(); // Debezium truncates to int too
    }

    static long timestamp(long debeziumMicros) {
        if (debeziumMicros == DEBEZIUM_TIMESTAMP_POSITIVE_INFINITY) {
            return PgInfinity.TIMESTAMP_POSITIVE;
        }
        if (debeziumMicros == DEBEZIUM_TIMESTAMP_NEGATIVE_INFINITY) {
            return PgInfinity.TIMESTAMP_NEGATIVE;
        }
        return debeziumMicros;
    }

    /**
     * What {@link #timestampTz} returns for an instant past 294247-01-10 04:00:54.775806 UTC: PostgreSQL goes on to
     * 294276-12-31, microseconds since 1970 in a long do not (and their last value is the infinity sentinel). No
     * timestamp PostgreSQL accepts is this many microseconds before 1970.
     */
    static final long BEYOND_MICROS = Long.MIN_VALUE + 1;

    /** Debezium's stand-ins for timestamp infinities in the stream (Instants, PGStatement's millis read as micros). */
    private static final Instant DEBEZIUM_POSITIVE_INFINITY_INSTANT = micros(DEBEZIUM_TIMESTAMP_POSITIVE_INFINITY);
    private static final Instant DEBEZIUM_NEGATIVE_INFINITY_INSTANT = micros(DEBEZIUM_TIMESTAMP_NEGATIVE_INFINITY);

    private static Instant micros(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, MICROS_PER_SECOND), Math.floorMod(micros, MICROS_PER_SECOND) * 1000);
    }

    /**
     * Micros since the epoch of a ZonedTimestamp string ({@code 2024-06-30T21:59:59.987654Z}) or an infinity;
     * {@link #BEYOND_MICROS} when the instant is too late for them (write {@link #timestampTzText} instead).
     */
    static long timestampTz(String text) {
        if ("infinity".equals(text)) {
            return PgInfinity.TIMESTAMP_POSITIVE;
        }
        if ("-infinity".equals(text)) {
            return PgInfinity.TIMESTAMP_NEGATIVE;
        }
        if (text.indexOf(' ') > 0) {
            return pgTimestampTz(text);
        }
        if (text.length() >= 20 && text.charAt(4) == '-' && text.charAt(10) == 'T' && text.endsWith("Z")) {
            long fast = fastUtc(text);
            if (fast != Long.MIN_VALUE) {
                return fast;
            }
        }
        OffsetDateTime t = OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        try {
            long micros = Math.addExact(Math.multiplyExact(t.toEpochSecond(), MICROS_PER_SECOND), t.getNano() / 1000);
            return micros == PgInfinity.TIMESTAMP_POSITIVE ? BEYOND_MICROS : micros;
        } catch (ArithmeticException e) {
            return BEYOND_MICROS;
        }
    }

    /**
     * Micros since 1970 of PostgreSQL's own timestamptz text in ISO DateStyle, as a snapshot reads a domain over
     * timestamptz ({@code 2024-02-29 23:59:59.999999+05:30}, {@code ... +00 BC}); {@link #BEYOND_MICROS} past them.
     */
    private static long pgTimestampTz(String text) {
        boolean bc = text.endsWith(" BC");
        String s = bc ? text.substring(0, text.length() - 3) : text;
        int sign = Math.max(s.lastIndexOf('+'), s.lastIndexOf('-'));
        if (sign < s.indexOf(' ')) {
            throw new IllegalArgumentException("not a timestamptz in ISO DateStyle: " + text);
        }
        int hours = digits(s, sign + 1, 2);
        int minutes = s.length() >= sign + 6 ? digits(s, sign + 4, 2) : 0;
        int seconds = s.length() >= sign + 9 ? digits(s, sign + 7, 2) : 0;
        if ((hours | minutes | seconds) < 0) {
            throw new IllegalArgumentException("not a timestamptz in ISO DateStyle: " + text);
        }
        long offsetMicros = (hours * 3600L + minutes * 60L + seconds) * MICROS_PER_SECOND * (s.charAt(sign) == '-' ? -1 : 1);
        TemporalText local = new TemporalText();
        if (!local.timestampMicros(s.substring(0, sign) + (bc ? " BC" : ""))) {
            return BEYOND_MICROS;
        }
        try {
            long micros = Math.subtractExact(local.micros, offsetMicros);
            return micros == PgInfinity.TIMESTAMP_POSITIVE ? BEYOND_MICROS : micros;
        } catch (ArithmeticException e) {
            return BEYOND_MICROS;
        }
    }

    /** PostgreSQL's text of a ZonedTimestamp string, in UTC: {@code 294276-12-31 23:59:59.999999+00}. */
    static String timestampTzText(String text) {
        if (text.indexOf(' ') > 0) { // PostgreSQL's own text, in the session's zone: moved to UTC
            boolean bc = text.endsWith(" BC");
            String s = bc ? text.substring(0, text.length() - 3) : text;
            int sign = Math.max(s.lastIndexOf('+'), s.lastIndexOf('-'));
            int offset = digits(s, sign + 1, 2) * 3600 + (s.length() >= sign + 6 ? digits(s, sign + 4, 2) * 60 : 0)
                + (s.length() >= sign + 9 ? digits(s, sign + 7, 2) : 0);
            String local = s.substring(0, sign);
            int dash = local.indexOf('-', 1);
            int space = local.indexOf(' ');
            long year = Long.parseLong(local, 0, dash, 10);
            LocalDateTime t = LocalDateTime.of(Math.toIntExact(bc ? 1 - year : year), digits(local, dash + 1, 2),
                digits(local, dash + 4, 2), digits(local, space + 1, 2), digits(local, space + 4, 2), digits(local, space + 7, 2),
                (int) fraction(local, space + 9, local.length()) * 1000);
            return pgTimestamp(t.minusSeconds(s.charAt(sign) == '-' ? -offset : offset), new StringBuilder(40), "+00").toString();
        }
        OffsetDateTime t = OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).withOffsetSameInstant(ZoneOffset.UTC);
        return pgTimestamp(t.toLocalDateTime(), new StringBuilder(40), "+00").toString();
    }

    /**
     * PostgreSQL's text, ISO DateStyle, of a timestamp (without time zone) as Debezium's stream hands it over: an
     * Instant of the wall-clock time read as UTC, or one of Debezium's infinity stand-ins.
     */
    static String timestampText(Instant instant) {
        if (instant.equals(DEBEZIUM_POSITIVE_INFINITY_INSTANT)) {
            return "infinity";
        }
        if (instant.equals(DEBEZIUM_NEGATIVE_INFINITY_INSTANT)) {
            return "-infinity";
        }
        return pgTimestamp(LocalDateTime.ofInstant(instant, ZoneOffset.UTC), new StringBuilder(32), "").toString();
    }

    /** {@code 2024-01-02 03:04:05.123456}, {@code 0044-03-15 12:00:00 BC}: years before 1 as their BC number. */
    private static StringBuilder pgTimestamp(LocalDateTime t, StringBuilder out, String offset) {
        int year = t.getYear();
        pad(out, year <= 0 ? 1 - year : year, 4).append('-');
        pad(out, t.getMonthValue(), 2).append('-');
        pad(out, t.getDayOfMonth(), 2).append(' ');
        pad(out, t.getHour(), 2).append(':');
        pad(out, t.getMinute(), 2).append(':');
        pad(out, t.getSecond(), 2);
        if (t.getNano() != 0) {
            out.append('.');
            pad(out, t.getNano() / 1000, 6);
        }
        out.append(offset);
        return year <= 0 ? out.append(" BC") : out;
    }

    private static StringBuilder pad(StringBuilder out, long value, int width) {
        String digits = Long.toString(value);
        for (int i = digits.length(); i < width; i++) {
            out.append('0');
        }
        return out.append(digits);
    }

    /**
     * Parses PostgreSQL's text of a timestamp in ISO DateStyle ({@code 2024-01-02 03:04:05.123456}, {@code ... BC},
     * {@code infinity}) into {@link #micros} since 1970. False when the timestamp is past what micros since 1970
     * hold (294247-01-10 04:00:54.775806): write the text itself.
     */
    boolean timestampMicros(String text) {
        if ("infinity".equals(text)) {
            micros = PgInfinity.TIMESTAMP_POSITIVE;
            return true;
        }
        if ("-infinity".equals(text)) {
            micros = PgInfinity.TIMESTAMP_NEGATIVE;
            return true;
        }
        boolean bc = text.endsWith(" BC");
        String s = bc ? text.substring(0, text.length() - 3) : text;
        int dash = s.indexOf('-', 1);
        int space = s.indexOf(' ');
        if (dash < 4 || space != dash + 6 || s.length() < space + 9) {
            throw new IllegalArgumentException("not a timestamp in ISO DateStyle: " + text);
        }
        long year = Long.parseLong(s, 0, dash, 10);
        LocalDate date = LocalDate.of(Math.toIntExact(bc ? 1 - year : year), digits(s, dash + 1, 2), digits(s, dash + 4, 2));
        int hour = digits(s, space + 1, 2);
        int minute = digits(s, space + 4, 2);
        int second = digits(s, space + 7, 2);
        long fraction = fraction(s, space + 9, s.length());
        if ((hour | minute | second) < 0 || fraction < 0 || s.charAt(space + 3) != ':' || s.charAt(space + 6) != ':') {
            throw new IllegalArgumentException("not a timestamp in ISO DateStyle: " + text);
        }
        try {
            long seconds = Math.addExact(Math.multiplyExact(date.toEpochDay(), 86_400L), hour * 3600L + minute * 60L + second);
            micros = Math.addExact(Math.multiplyExact(seconds, MICROS_PER_SECOND), fraction);
            return micros != PgInfinity.TIMESTAMP_POSITIVE;
        } catch (ArithmeticException e) {
            return false;
        }
    }

    /** {@code yyyy-MM-ddTHH:mm:ss[.f]Z}; Long.MIN_VALUE if the text has another shape. */
    private static long fastUtc(String s) {
        int year = digits(s, 0, 4);
        int month = digits(s, 5, 2);
        int day = digits(s, 8, 2);
        int hour = digits(s, 11, 2);
        int minute = digits(s, 14, 2);
        int second = digits(s, 17, 2);
        if ((year | month | day | hour | minute | second) < 0 || s.charAt(13) != ':' || s.charAt(16) != ':'
            || s.charAt(7) != '-') {
            return Long.MIN_VALUE;
        }
        int end = s.length() - 1;
        long fraction = fraction(s, 19, end);
        if (fraction < 0 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) {
            return Long.MIN_VALUE;
        }
        long epochDay = LocalDate.of(year, month, day).toEpochDay();
        return ((epochDay * 24 + hour) * 60 + minute) * 60 * MICROS_PER_SECOND + second * MICROS_PER_SECOND + fraction;
    }

    /**
     * Micros since midnight of a ZonedTime string ({@code 04:41:12.345678Z}); the offset is left in
     * {@link #offsetSeconds}. Debezium has already moved the value to UTC, so the offset is 0 in practice.
     */
    long timeTzMicros(String text) {
        if (text.endsWith("Z")) {
            OffsetTime t = OffsetTime.parse(text, DateTimeFormatter.ISO_OFFSET_TIME);
            offsetSeconds = t.getOffset().getTotalSeconds();
            return t.toLocalTime().toNanoOfDay() / 1000;
        }
        // PostgreSQL's text: HH:MM:SS[.f](+|-)HH[:MM[:SS]], 24:00:00 included
        int sign = Math.max(text.lastIndexOf('+'), text.lastIndexOf('-'));
        int hour = digits(text, 0, 2);
        int minute = digits(text, 3, 2);
        int second = digits(text, 6, 2);
        long fraction = fraction(text, 8, sign);
        int offHours = digits(text, sign + 1, 2);
        int offMinutes = text.length() >= sign + 6 ? digits(text, sign + 4, 2) : 0;
        int offSeconds = text.length() >= sign + 9 ? digits(text, sign + 7, 2) : 0;
        if (sign < 8 || (hour | minute | second | offHours | offMinutes | offSeconds) < 0 || fraction < 0
            || text.charAt(2) != ':' || text.charAt(5) != ':') {
            throw new IllegalArgumentException("not a timetz: " + text);
        }
        int offset = offHours * 3600 + offMinutes * 60 + offSeconds;
        offsetSeconds = text.charAt(sign) == '-' ? -offset : offset;
        return (hour * 3600L + minute * 60L + second) * MICROS_PER_SECOND + fraction;
    }

    /** PostgreSQL's text of an OffsetTime: {@code 04:41:12.345678+00}, {@code 10:11:12+05:30}. */
    static String timeTzText(OffsetTime time) {
        StringBuilder out = new StringBuilder(24);
        pad(out, time.getHour(), 2).append(':');
        pad(out, time.getMinute(), 2).append(':');
        pad(out, time.getSecond(), 2);
        if (time.getNano() != 0) {
            out.append('.');
            pad(out, time.getNano() / 1000, 6);
        }
        int offset = time.getOffset().getTotalSeconds();
        out.append(offset < 0 ? '-' : '+');
        int abs = Math.abs(offset);
        pad(out, abs / 3600, 2);
        if (abs % 3600 != 0) {
            pad(out.append(':'), abs / 60 % 60, 2);
            if (abs % 60 != 0) {
                pad(out.append(':'), abs % 60, 2);
            }
        }
        return out.toString();
    }

    /**
     * Parses Debezium's ISO-8601 interval {@code P<y>Y<m>M<d>DT<h>H<m>M<s>S} (each part signed, seconds with up to
     * 9 fraction digits) into {@link #months}, {@link #days}, {@link #micros}.
     */
    void interval(String s) {
        if (s.isEmpty() || s.charAt(0) != 'P') {
            throw new IllegalArgumentException("not an ISO-8601 interval: " + s);
        }
        long m = 0;
        long d = 0;
        long us = 0;
        boolean time = false;
        int i = 1;
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (c == 'T') {
                time = true;
                i++;
                continue;
            }
            int start = i;
            boolean negative = false;
            if (c == '-' || c == '+') {
                negative = c == '-';
                i++;
            }
            long whole = 0;
            while (i < n && Character.isDigit(s.charAt(i))) {
                whole = Math.addExact(Math.multiplyExact(whole, 10), s.charAt(i) - '0');
                i++;
            }
            long fractionMicros = 0;
            if (i < n && s.charAt(i) == '.') {
                i++;
                int digits = 0;
                while (i < n && Character.isDigit(s.charAt(i))) {
                    if (digits < 6) {
                        fractionMicros = fractionMicros * 10 + (s.charAt(i) - '0');
                    } else if (s.charAt(i) != '0') {
                        throw new IllegalArgumentException("interval with sub-microsecond digits: " + s);
                    }
                    digits++;
                    i++;
                }
                for (; digits < 6; digits++) {
                    fractionMicros *= 10;
                }
            }
            if (i >= n || i == start) {
                throw new IllegalArgumentException("not an ISO-8601 interval: " + s);
            }
            char unit = s.charAt(i++);
            long sign = negative ? -1 : 1;
            if (!time && unit == 'Y') {
                m = Math.addExact(m, Math.multiplyExact(sign * whole, 12));
            } else if (!time && unit == 'M') {
                m = Math.addExact(m, sign * whole);
            } else if (!time && unit == 'D') {
                d = Math.addExact(d, sign * whole);
            } else if (time && unit == 'H') {
                us = Math.addExact(us, Math.multiplyExact(sign * whole, MICROS_PER_HOUR));
            } else if (time && unit == 'M') {
                us = Math.addExact(us, Math.multiplyExact(sign * whole, MICROS_PER_MINUTE));
            } else if (time && unit == 'S') {
                us = Math.addExact(us, Math.addExact(Math.multiplyExact(sign * whole, MICROS_PER_SECOND), sign * fractionMicros));
            } else {
                throw new IllegalArgumentException("not an ISO-8601 interval: " + s);
            }
        }
        months = Math.toIntExact(m);
        days = Math.toIntExact(d);
        micros = us;
    }

    private static int digits(String s, int from, int count) {
        int v = 0;
        for (int i = from; i < from + count; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    /** Micros of an optional {@code .f{1,9}} between from and end; -1 if malformed. */
    private static long fraction(String s, int from, int end) {
        if (from == end) {
            return 0;
        }
        if (s.charAt(from) != '.' || end - from < 2 || end - from > 10) {
            return -1;
        }
        long v = 0;
        int digits = 0;
        for (int i = from + 1; i < end; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            if (digits < 6) {
                v = v * 10 + (c - '0');
            }
            digits++;
        }
        for (; digits < 6; digits++) {
            v *= 10;
        }
        return v;
    }
}
