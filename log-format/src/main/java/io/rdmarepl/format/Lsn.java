package io.rdmarepl.format;

/**
 * A PostgreSQL log sequence number. The static methods work on a primitive {@code long} and never
 * allocate (hot path); the record wraps one for the control plane, where it prints as {@code 16/B374D848}.
 *
 * <p>An LSN is an unsigned 64-bit position: compare with {@link #compare(long, long)}, never with {@code <}.
 */
public record Lsn(long value) implements Comparable<Lsn> {
    /** PostgreSQL's {@code InvalidXLogRecPtr}. */
    public static final long INVALID = 0L;

    /** Parses PostgreSQL's {@code XXXXXXXX/XXXXXXXX} text form (one to eight hex digits each side). */
    public static long parse(CharSequence text) {
        int slash = -1;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '/') {
                slash = i;
                break;
            }
        }
        if (slash < 0) {
            throw new IllegalArgumentException("LSN '" + text + "' has no '/' between its two halves");
        }
        long high = parseHalf(text, 0, slash);
        long low = parseHalf(text, slash + 1, text.length());
        return high << 32 | low;
    }

    /** PostgreSQL's text form, e.g. {@code 16/B374D848}: upper-case hex, no leading zeros. */
    public static String format(long lsn) {
        return appendTo(lsn, new StringBuilder(17)).toString();
    }

    /** Appends the text form of {@code lsn} without allocating (beyond growing {@code out}). */
    public static StringBuilder appendTo(long lsn, StringBuilder out) {
        appendHex(lsn >>> 32, out);
        out.append('/');
        appendHex(lsn & 0xFFFF_FFFFL, out);
        return out;
    }

    /** Unsigned comparison: negative, zero or positive as {@code a} is before, at or after {@code b}. */
    public static int compare(long a, long b) {
        return Long.compareUnsigned(a, b);
    }

    /** The later of two positions in unsigned order. */
    public static long max(long a, long b) {
        return Long.compareUnsigned(a, b) >= 0 ? a : b;
    }

    /** Boxes a parsed LSN for the control plane. */
    public static Lsn valueOf(CharSequence text) {
        return new Lsn(parse(text));
    }

    @Override
    public int compareTo(Lsn other) {
        return compare(value, other.value);
    }

    @Override
    public String toString() {
        return format(value);
    }

    private static long parseHalf(CharSequence text, int from, int to) {
        if (to - from < 1 || to - from > 8) {
            throw new IllegalArgumentException("LSN '" + text + "' needs 1 to 8 hex digits on each side of '/'");
        }
        long value = 0;
        for (int i = from; i < to; i++) {
            int digit = Character.digit(text.charAt(i), 16);
            if (digit < 0) {
                throw new IllegalArgumentException("LSN '" + text + "' has a non-hex character at index " + i);
            }
            value = value << 4 | digit;
        }
        return value;
    }

    private static void appendHex(long value, StringBuilder out) {
        int shift = 28;
        while (shift > 0 && (value >>> shift & 0xF) == 0) {
            shift -= 4;
        }
        for (; shift >= 0; shift -= 4) {
            out.append(Character.toUpperCase(Character.forDigit((int) (value >>> shift & 0xF), 16)));
        }
    }
}
