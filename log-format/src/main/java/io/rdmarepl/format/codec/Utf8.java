package io.rdmarepl.format.codec;

import java.nio.ByteBuffer;

/**
 * UTF-8 straight between {@code CharSequence}s and a buffer, without the temporary arrays of
 * {@code String.getBytes} or a {@code CharsetEncoder}. Decoding is strict (RFC 3629): overlong forms,
 * surrogates and code points past U+10FFFF are malformed, as they are for PostgreSQL.
 */
public final class Utf8 {
    private Utf8() {
    }

    /**
     * Bytes needed to encode {@code text}, or {@code -(index + 1)} of the first unpaired surrogate,
     * which has no UTF-8 form.
     */
    public static int encodedLength(CharSequence text) {
        int length = 0;
        int count = text.length();
        for (int i = 0; i < count; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                length += 1;
            } else if (c < 0x800) {
                length += 2;
            } else if (!Character.isSurrogate(c)) {
                length += 3;
            } else if (Character.isHighSurrogate(c) && i + 1 < count && Character.isLowSurrogate(text.charAt(i + 1))) {
                length += 4;
                i++;
            } else {
                return -(i + 1);
            }
        }
        return length;
    }

    /** Writes {@code text} (free of unpaired surrogates) at {@code index}; returns the index after it. */
    public static int encode(CharSequence text, ByteBuffer buffer, int index) {
        int at = index;
        int count = text.length();
        for (int i = 0; i < count; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                buffer.put(at++, (byte) c);
            } else if (c < 0x800) {
                buffer.put(at++, (byte) (0xC0 | c >> 6));
                buffer.put(at++, (byte) (0x80 | c & 0x3F));
            } else if (!Character.isSurrogate(c)) {
                buffer.put(at++, (byte) (0xE0 | c >> 12));
                buffer.put(at++, (byte) (0x80 | c >> 6 & 0x3F));
                buffer.put(at++, (byte) (0x80 | c & 0x3F));
            } else {
                int cp = Character.toCodePoint(c, text.charAt(++i));
                buffer.put(at++, (byte) (0xF0 | cp >> 18));
                buffer.put(at++, (byte) (0x80 | cp >> 12 & 0x3F));
                buffer.put(at++, (byte) (0x80 | cp >> 6 & 0x3F));
                buffer.put(at++, (byte) (0x80 | cp & 0x3F));
            }
        }
        return at;
    }

    /**
     * Appends the {@code length} UTF-8 bytes at {@code index} to {@code out}.
     *
     * @return -1 on success, else the index of the first byte of a malformed sequence (what was
     *     decoded before it has been appended)
     */
    static int decode(ByteBuffer buffer, int index, int length, StringBuilder out) {
        int end = index + length;
        int at = index;
        while (at < end) {
            int b0 = buffer.get(at) & 0xFF;
            if (b0 < 0x80) {
                out.append((char) b0);
                at++;
                continue;
            }
            int need;
            int cp;
            int min;
            int max;
            if (b0 >= 0xC2 && b0 <= 0xDF) {
                need = 1;
                cp = b0 & 0x1F;
                min = 0x80;
                max = 0xBF;
            } else if (b0 >= 0xE0 && b0 <= 0xEF) {
                need = 2;
                cp = b0 & 0x0F;
                min = b0 == 0xE0 ? 0xA0 : 0x80;
                max = b0 == 0xED ? 0x9F : 0xBF;
            } else if (b0 >= 0xF0 && b0 <= 0xF4) {
                need = 3;
                cp = b0 & 0x07;
                min = b0 == 0xF0 ? 0x90 : 0x80;
                max = b0 == 0xF4 ? 0x8F : 0xBF;
            } else {
                return at;
            }
            if (end - at <= need) {
                return at;
            }
            for (int k = 1; k <= need; k++) {
                int b = buffer.get(at + k) & 0xFF;
                int lo = k == 1 ? min : 0x80;
                int hi = k == 1 ? max : 0xBF;
                if (b < lo || b > hi) {
                    return at;
                }
                cp = cp << 6 | b & 0x3F;
            }
            if (need == 3) {
                // appendCodePoint would allocate a char[2] for a supplementary code point
                out.append(Character.highSurrogate(cp)).append(Character.lowSurrogate(cp));
            } else {
                out.append((char) cp);
            }
            at += need + 1;
        }
        return -1;
    }
}
