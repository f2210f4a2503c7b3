package io.rdmarepl.applier.apply;

import io.rdmarepl.format.NumericSpecial;
import io.rdmarepl.format.PgInfinity;
import io.rdmarepl.format.ValueTag;
import io.rdmarepl.format.codec.ArrayView;
import io.rdmarepl.format.codec.NetworkText;
import io.rdmarepl.format.codec.TupleView;
import io.rdmarepl.format.codec.ValuesView;
import java.math.BigDecimal;

/**
 * PostgreSQL text forms that read back to exactly the value that was sent, whatever the session's
 * DateStyle, TimeZone or IntervalStyle: ISO dates with an explicit era, timestamptz with an explicit
 * {@code +00} offset, every microsecond, intervals as signed fields, arrays with their bounds.
 */
final class PgText {
    private static final long MICROS_PER_DAY = 86_400_000_000L;
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private PgText() {
    }

    /**
     * Value {@code column} of {@code tuple} as text for an error message (control path, allocates): any tag, NULL and an
     * unchanged TOAST value named as such, cut to {@code longest} characters.
     */
    static String forMessage(TupleView tuple, int column, int longest) {
        StringBuilder text = new StringBuilder();
        switch (tuple.tag(column)) {
            case NULL -> text.append("NULL");
            case ARRAY -> appendArray(tuple.array(column), text);
            case UNCHANGED_TOAST -> text.append("(unchanged TOAST value)");
            default -> appendScalar(tuple, column, text);
        }
        if (text.length() > longest) {
            text.setLength(longest);
            text.append("...");
        }
        return text.toString();
    }

    /** Appends value {@code i} of {@code values} (any tag but NULL, UNCHANGED_TOAST and ARRAY). */
    static StringBuilder appendScalar(ValuesView values, int i, StringBuilder out) {
        ValueTag tag = values.tag(i);
        switch (tag) {
            case BOOL -> out.append(values.bool(i) ? 't' : 'f');
            case INT2 -> out.append(values.int2(i));
            case INT4 -> out.append(values.int4(i));
            case INT8 -> out.append(values.int8(i));
            case FLOAT4 -> appendFloat(values.float4(i), out);
            case FLOAT8 -> appendDouble(values.float8(i), out);
            case NUMERIC -> appendNumeric(values, i, out);
            case TEXT, JSON, JSONB, ENUM, TEXT_FALLBACK -> values.copyText(i, out);
            case BYTEA -> appendHex(values, i, out);
            case DATE -> appendDate(values.date(i), out);
            case TIME -> appendTime(values.time(i), out);
            case TIMETZ -> appendOffset(values.timeTzOffsetSeconds(i), appendTime(values.timeTzMicros(i), out));
            case TIMESTAMP -> appendTimestamp(values.timestamp(i), false, out);
            case TIMESTAMPTZ -> appendTimestamp(values.timestampTz(i), true, out);
            case INTERVAL -> appendInterval(values.intervalMonths(i), values.intervalDays(i), values.intervalMicros(i), out);
            case UUID -> appendUuid(values.uuidMostSignificantBits(i), values.uuidLeastSignificantBits(i), out);
            case INET, CIDR -> values.appendInet(i, out);
            case MACADDR -> NetworkText.appendMac(out, values.macaddr(i), 6);
            case MACADDR8 -> NetworkText.appendMac(out, values.macaddr(i), 8);
            default -> throw new IllegalStateException("no text form for a " + tag.typeName() + " scalar");
        }
        return out;
    }

    /** An array literal: {@code [0:1]={"a",NULL}} when a lower bound is not 1, {@code {{"1","2"},{"3",NULL}}}. */
    static StringBuilder appendArray(ArrayView array, StringBuilder out) {
        int dims = array.dimensions();
        if (dims == 0) {
            return out.append("{}");
        }
        boolean bounds = false;
        for (int d = 0; d < dims; d++) {
            bounds |= array.lowerBound(d) != 1;
        }
        if (bounds) {
            for (int d = 0; d < dims; d++) {
                int lower = array.lowerBound(d);
                out.append('[').append(lower).append(':').append(lower + array.dimensionLength(d) - 1).append(']');
            }
            out.append('=');
        }
        int[] index = {0};
        appendDimension(array, 0, index, out);
        return out;
    }

    private static void appendDimension(ArrayView array, int dim, int[] next, StringBuilder out) {
        out.append('{');
        int length = array.dimensionLength(dim);
        for (int k = 0; k < length; k++) {
            if (k > 0) {
                out.append(',');
            }
            if (dim + 1 < array.dimensions()) {
                appendDimension(array, dim + 1, next, out);
                continue;
            }
            int e = next[0]++;
            if (array.isNull(e)) {
                out.append("NULL");
                continue;
            }
            out.append('"');
            int start = out.length();
            appendScalar(array, e, out);
            for (int c = out.length() - 1; c >= start; c--) {
                char ch = out.charAt(c);
                if (ch == '"' || ch == '\\') {
                    out.insert(c, '\\');
                }
            }
            out.append('"');
        }
        out.append('}');
    }

    static StringBuilder appendNumeric(ValuesView values, int i, StringBuilder out) {
        NumericSpecial special = values.numericSpecial(i);
        return switch (special) {
            case NAN -> out.append("NaN");
            case POSITIVE_INFINITY -> out.append("Infinity");
            case NEGATIVE_INFINITY -> out.append("-Infinity");
            case NONE -> out.append(values.numericFitsInLong(i)
                    ? BigDecimal.valueOf(values.numericUnscaledLong(i), values.numericScale(i)).toPlainString()
                    : values.numeric(i).toPlainString());
        };
    }

    static StringBuilder appendFloat(float value, StringBuilder out) {
        return Float.isInfinite(value) ? out.append(value > 0 ? "Infinity" : "-Infinity") : out.append(value);
    }

    static StringBuilder appendDouble(double value, StringBuilder out) {
        return Double.isInfinite(value) ? out.append(value > 0 ? "Infinity" : "-Infinity") : out.append(value);
    }

    static StringBuilder appendHex(ValuesView values, int i, StringBuilder out) {
        out.append("\\x");
        int at = values.bytesOffset(i);
        int length = values.bytesLength(i);
        for (int k = 0; k < length; k++) {
            int b = values.buffer().get(at + k) & 0xFF;
            out.append(HEX[b >>> 4]).append(HEX[b & 0xF]);
        }
        return out;
    }

    /** {@code 2024-02-29}, {@code 0044-03-15 BC}, {@code infinity}. */
    static StringBuilder appendDate(int days, StringBuilder out) {
        if (days == PgInfinity.DATE_POSITIVE) {
            return out.append("infinity");
        }
        if (days == PgInfinity.DATE_NEGATIVE) {
            return out.append("-infinity");
        }
        return appendEra(appendYmd(days, out), days);
    }

    static StringBuilder appendTime(long micros, StringBuilder out) {
        long seconds = micros / 1_000_000;
        pad(out, seconds / 3600, 2).append(':');
        pad(out, seconds / 60 % 60, 2).append(':');
        pad(out, seconds % 60, 2).append('.');
        return pad(out, micros % 1_000_000, 6);
    }

    /** {@code 2024-02-29 12:34:56.000001[+00][ BC]}; the offset makes a timestamptz independent of TimeZone. */
    static StringBuilder appendTimestamp(long micros, boolean zoned, StringBuilder out) {
        if (micros == PgInfinity.TIMESTAMP_POSITIVE) {
            return out.append("infinity");
        }
        if (micros == PgInfinity.TIMESTAMP_NEGATIVE) {
            return out.append("-infinity");
        }
        long days = Math.floorDiv(micros, MICROS_PER_DAY);
        appendYmd(days, out).append(' ');
        appendTime(Math.floorMod(micros, MICROS_PER_DAY), out);
        if (zoned) {
            out.append("+00");
        }
        return appendEra(out, days);
    }

    /** Signed fields, read the same under IntervalStyle postgres (which the applier's sessions use). */
    static StringBuilder appendInterval(int months, int days, long micros, StringBuilder out) {
        out.append(months).append(" mons ").append(days).append(" days ");
        if (micros < 0) {
            out.append('-');
        }
        long abs = micros == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(micros);
        long seconds = abs / 1_000_000;
        out.append(seconds / 3600).append(':');
        pad(out, seconds / 60 % 60, 2).append(':');
        pad(out, seconds % 60, 2).append('.');
        return pad(out, abs % 1_000_000, 6);
    }

    static StringBuilder appendUuid(long msb, long lsb, StringBuilder out) {
        hex(out, msb >>> 32, 8).append('-');
        hex(out, msb >>> 16 & 0xFFFF, 4).append('-');
        hex(out, msb & 0xFFFF, 4).append('-');
        hex(out, lsb >>> 48, 4).append('-');
        return hex(out, lsb & 0xFFFF_FFFF_FFFFL, 12);
    }

    private static StringBuilder appendOffset(int secondsEast, StringBuilder out) {
        out.append(secondsEast < 0 ? '-' : '+');
        int abs = Math.abs(secondsEast);
        pad(out, abs / 3600, 2).append(':');
        pad(out, abs / 60 % 60, 2).append(':');
        return pad(out, abs % 60, 2);
    }

    /** Proleptic Gregorian year-month-day of a day count; years before 1 print as their BC number. */
    private static StringBuilder appendYmd(long epochDay, StringBuilder out) {
        // civil_from_days (H. Hinnant), valid far beyond PostgreSQL's range
        long z = epochDay + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long doe = z - era * 146_097;
        long yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        long y = yoe + era * 400;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        long d = doy - (153 * mp + 2) / 5 + 1;
        long m = mp < 10 ? mp + 3 : mp - 9;
        y += m <= 2 ? 1 : 0;
        pad(out, y <= 0 ? 1 - y : y, 4).append('-');
        pad(out, m, 2).append('-');
        return pad(out, d, 2);
    }

    private static StringBuilder appendEra(StringBuilder out, long epochDay) {
        // 0001-01-01 is day -719162
        return epochDay < -719_162 ? out.append(" BC") : out;
    }

    private static StringBuilder pad(StringBuilder out, long value, int width) {
        for (long limit = 10, w = 1; w < width; w++, limit *= 10) {
            if (value < limit) {
                out.append('0');
            }
        }
        return out.append(value);
    }

    private static StringBuilder hex(StringBuilder out, long value, int digits) {
        for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
            out.append(HEX[(int) (value >>> shift & 0xF)]);
        }
        return out;
    }

}
