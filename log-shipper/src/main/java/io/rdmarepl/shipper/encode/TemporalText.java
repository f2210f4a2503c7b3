package io.rdmarepl.shipper.encode;

import io.rdmarepl.format.PgInfinity;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
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
        if (debeziumDays >= PG_FIRST_DATE) {
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

    /** Micros since the epoch of a ZonedTimestamp string ({@code 2024-06-30T21:59:59.987654Z}) or an infinity. */
    static long timestampTz(String text) {
        if ("infinity".equals(text)) {
            return PgInfinity.TIMESTAMP_POSITIVE;
        }
        if ("-infinity".equals(text)) {
            return PgInfinity.TIMESTAMP_NEGATIVE;
        }
        if (text.length() >= 20 && text.charAt(4) == '-' && text.charAt(10) == 'T' && text.endsWith("Z")) {
            long fast = fastUtc(text);
            if (fast != Long.MIN_VALUE) {
                return fast;
            }
        }
        OffsetDateTime t = OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        return Math.addExact(Math.multiplyExact(t.toEpochSecond(), MICROS_PER_SECOND), t.getNano() / 1000);
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
        OffsetTime t = OffsetTime.parse(text, DateTimeFormatter.ISO_OFFSET_TIME);
        offsetSeconds = t.getOffset().getTotalSeconds();
        return t.toLocalTime().toNanoOfDay() / 1000;
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
