package io.rdmarepl.shipper.capture.pgoutput;

import java.text.Normalizer;

/**
 * SASLprep (RFC 4013) of a password, the way PostgreSQL applies it on both sides of SCRAM: an ASCII password is
 * used as it is; otherwise map (non-ASCII spaces to a space, "commonly mapped to nothing" characters removed),
 * normalize to NFKC, and check for prohibited characters and bidirectional rules. When the check fails, PostgreSQL
 * (libpq and the server alike) uses the password unchanged, and so does {@link #prepareOrKeep}.
 *
 * <p>Limit: "unassigned code points" are judged by this JVM's Unicode tables, not Unicode 3.2 as stringprep says;
 * a password holding a character assigned after Unicode 3.2 is normalized here but kept as is by PostgreSQL, which
 * differs only if NFKC changes it.
 */
final class SaslPrep {
    private SaslPrep() {
    }

    /** @return the prepared password, or the password itself when SASLprep refuses it (as PostgreSQL does) */
    static String prepareOrKeep(String password) {
        String prepared = prepare(password);
        return prepared == null ? password : prepared;
    }

    /** @return the prepared string, or null when it holds a prohibited character or breaks the bidi rules */
    static String prepare(String text) {
        if (isAscii(text)) {
            return text;
        }
        StringBuilder mapped = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); ) {
            int code = text.codePointAt(i);
            i += Character.charCount(code);
            if (isNonAsciiSpace(code)) {
                mapped.append(' ');
            } else if (!isMappedToNothing(code)) {
                mapped.appendCodePoint(code);
            }
        }
        String normalized = Normalizer.normalize(mapped, Normalizer.Form.NFKC);
        boolean anyRandAl = false;
        boolean anyL = false;
        for (int i = 0; i < normalized.length(); ) {
            int code = normalized.codePointAt(i);
            i += Character.charCount(code);
            if (isProhibited(code)) {
                return null;
            }
            byte direction = Character.getDirectionality(code);
            anyRandAl |= direction == Character.DIRECTIONALITY_RIGHT_TO_LEFT
                || direction == Character.DIRECTIONALITY_RIGHT_TO_LEFT_ARABIC;
            anyL |= direction == Character.DIRECTIONALITY_LEFT_TO_RIGHT;
        }
        if (anyRandAl && (anyL || !isRandAl(normalized.codePointAt(0))
            || !isRandAl(normalized.codePointBefore(normalized.length())))) {
            return null;
        }
        return normalized;
    }

    private static boolean isAscii(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) > 0x7F) {
                return false;
            }
        }
        return true;
    }

    private static boolean isRandAl(int code) {
        byte direction = Character.getDirectionality(code);
        return direction == Character.DIRECTIONALITY_RIGHT_TO_LEFT
            || direction == Character.DIRECTIONALITY_RIGHT_TO_LEFT_ARABIC;
    }

    /** RFC 3454 table C.1.2 (PostgreSQL maps U+200B here, before B.1). */
    static boolean isNonAsciiSpace(int code) {
        return code == 0x00A0 || code == 0x1680 || code >= 0x2000 && code <= 0x200B
            || code == 0x202F || code == 0x205F || code == 0x3000;
    }

    /** RFC 3454 table B.1. */
    static boolean isMappedToNothing(int code) {
        return code == 0x00AD || code == 0x034F || code == 0x1806 || code >= 0x180B && code <= 0x180D
            || code >= 0x200B && code <= 0x200D || code == 0x2060 || code >= 0xFE00 && code <= 0xFE0F
            || code == 0xFEFF;
    }

    /** RFC 4013 section 2.3: tables C.1.2, C.2.1, C.2.2, C.3 to C.9, and A.1 (unassigned, approximated). */
    static boolean isProhibited(int code) {
        return isNonAsciiSpace(code)
            || code < 0x20 || code == 0x7F                                                    // C.2.1
            || code >= 0x80 && code <= 0x9F || code == 0x06DD || code == 0x070F || code == 0x180E
            || code >= 0x200C && code <= 0x200D || code >= 0x2028 && code <= 0x2029
            || code >= 0x2060 && code <= 0x2063 || code >= 0x206A && code <= 0x206F
            || code == 0xFEFF || code >= 0xFFF9 && code <= 0xFFFC
            || code >= 0x1D173 && code <= 0x1D17A                                              // C.2.2
            || code >= 0xE000 && code <= 0xF8FF || code >= 0xF0000 && code <= 0xFFFFD
            || code >= 0x100000 && code <= 0x10FFFD                                            // C.3
            || code >= 0xFDD0 && code <= 0xFDEF || (code & 0xFFFE) == 0xFFFE                   // C.4
            || code >= 0xD800 && code <= 0xDFFF                                                // C.5
            || code >= 0xFFF9 && code <= 0xFFFD                                                // C.6
            || code >= 0x2FF0 && code <= 0x2FFB                                                // C.7
            || code == 0x0340 || code == 0x0341 || code == 0x200E || code == 0x200F
            || code >= 0x202A && code <= 0x202E                                                // C.8
            || code == 0xE0001 || code >= 0xE0020 && code <= 0xE007F                           // C.9
            || Character.getType(code) == Character.UNASSIGNED;                                 // A.1
    }
}
