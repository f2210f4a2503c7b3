package io.rdmarepl.shipper.capture.pgoutput;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Parses the walsender's text output of the few types that go into log-format natively (int2, int4, int8, bool)
 * straight from the message bytes, without a String. Anything but the canonical output fails naming the value.
 */
final class TextValues {
    private static final int MAX_SHOWN_BYTES = 40;

    private final DecodeContext context;

    TextValues(DecodeContext context) {
        this.context = context;
    }

    /** The integer written in {@code length} ASCII bytes at {@code at}, which must lie in {@code [min, max]}. */
    long integer(ByteBuffer source, int at, int length, long min, long max, String typeName) {
        int end = at + length;
        int i = at;
        boolean negative = length > 0 && source.get(i) == '-';
        if (negative) {
            i++;
        }
        if (i == end || end - i > 19) {
            throw notA(source, at, length, typeName);
        }
        long limit = negative ? Long.MIN_VALUE : -Long.MAX_VALUE;
        long value = 0; // accumulated negatively, so that Long.MIN_VALUE fits
        for (; i < end; i++) {
            int digit = source.get(i) - '0';
            if (digit < 0 || digit > 9 || value < limit / 10 || value * 10 < limit + digit) {
                throw notA(source, at, length, typeName);
            }
            value = value * 10 - digit;
        }
        long result = negative ? value : -value;
        if (result < min || result > max) {
            throw notA(source, at, length, typeName);
        }
        return result;
    }

    /** {@code t} or {@code f}: the output of bool. */
    boolean bool(ByteBuffer source, int at, int length) {
        if (length == 1) {
            byte b = source.get(at);
            if (b == 't') {
                return true;
            }
            if (b == 'f') {
                return false;
            }
        }
        throw notA(source, at, length, "bool");
    }

    private PgOutputException notA(ByteBuffer source, int at, int length, String typeName) {
        byte[] shown = new byte[Math.min(length, MAX_SHOWN_BYTES)];
        source.get(at, shown);
        return context.fail("text '" + new String(shown, StandardCharsets.UTF_8) + (length > MAX_SHOWN_BYTES ? "...' (" + length
            + " bytes)" : "'") + " is not " + (typeName.startsWith("i") ? "an " : "a ") + typeName);
    }
}
