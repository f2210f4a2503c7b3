package io.rdmarepl.shipper.encode;

import io.rdmarepl.format.NumericSpecial;
import io.rdmarepl.format.codec.RowWriter;
import java.math.BigDecimal;

/**
 * Writes a numeric given as text: Debezium's {@code decimal.handling.mode=string} form (plain digits with the
 * column's scale, or {@code NAN}/{@code POSITIVE_INFINITY}/{@code NEGATIVE_INFINITY}) or PostgreSQL's own
 * ({@code NaN}/{@code Infinity}/{@code -Infinity}, inside arrays). Up to 18 digits go through a long without
 * allocating; longer values through {@link BigDecimal}. The scale is kept ({@code 1.50} stays 1.50).
 */
final class NumericText {
    private NumericText() {
    }

    static void put(RowWriter w, CharSequence text) {
        NumericSpecial special = special(text);
        if (special != NumericSpecial.NONE) {
            w.putNumericSpecial(special);
            return;
        }
        int n = text.length();
        int i = 0;
        boolean negative = false;
        if (n > 0 && (text.charAt(0) == '-' || text.charAt(0) == '+')) {
            negative = text.charAt(0) == '-';
            i = 1;
        }
        long unscaled = 0;
        int digits = 0;
        int scale = -1;
        boolean plain = n > i;
        for (; i < n; i++) {
            char c = text.charAt(i);
            if (c >= '0' && c <= '9') {
                if (++digits > 18) {
                    plain = false;
                    break;
                }
                unscaled = unscaled * 10 + (c - '0');
                if (scale >= 0) {
                    scale++;
                }
            } else if (c == '.' && scale < 0) {
                scale = 0;
            } else {
                plain = false;
                break;
            }
        }
        if (plain && digits > 0) {
            w.putNumeric(negative ? -unscaled : unscaled, Math.max(scale, 0));
        } else {
            w.putNumeric(new BigDecimal(text.toString()));
        }
    }

    static NumericSpecial special(CharSequence text) {
        int n = text.length();
        if (n < 3 || n > 17) {
            return NumericSpecial.NONE;
        }
        char c = text.charAt(0);
        if (c >= '0' && c <= '9' || c == '.' || (c == '-' && n > 1 && text.charAt(1) >= '0' && text.charAt(1) <= '9')) {
            return NumericSpecial.NONE;
        }
        String s = text.toString();
        switch (s) {
            case "NAN": case "NaN": return NumericSpecial.NAN;
            case "POSITIVE_INFINITY": case "Infinity": case "+Infinity": return NumericSpecial.POSITIVE_INFINITY;
            case "NEGATIVE_INFINITY": case "-Infinity": return NumericSpecial.NEGATIVE_INFINITY;
            default: return NumericSpecial.NONE;
        }
    }
}
