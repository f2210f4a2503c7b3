package io.rdmarepl.format.codec;

/**
 * Text forms of {@code inet}/{@code cidr} and {@code macaddr}/{@code macaddr8}, parsed into the binary wire
 * form without allocating (the shipper receives these types as strings from Debezium) and printed back
 * for the applier and humans. Printing gives a valid PostgreSQL input form (IPv6 per RFC 5952), which
 * may differ in spelling, never in value, from PostgreSQL's own output.
 */
public final class NetworkText {
    private NetworkText() {
    }

    /**
     * Parses {@code a.b.c.d[/bits]} or an IPv6 address {@code [/bits]} into {@code address} (16 bytes
     * or more).
     *
     * @return {@code family << 8 | bits}, family being 4 or 6; a missing mask means all bits
     * @throws IllegalArgumentException if the text is not an address
     */
    public static int parseInet(CharSequence text, byte[] address) {
        int end = text.length();
        int slash = indexOf(text, '/');
        int addressEnd = slash < 0 ? end : slash;
        boolean v6 = indexOf(text, ':') >= 0;
        boolean ok = v6 ? parseIpv6(text, 0, addressEnd, address) : parseIpv4(text, 0, addressEnd, address, 0);
        if (!ok) {
            throw new IllegalArgumentException("not an IP" + (v6 ? "v6" : "v4") + " address: '" + text + "'");
        }
        int maxBits = v6 ? 128 : 32;
        int bits = maxBits;
        if (slash >= 0) {
            bits = parseDecimal(text, slash + 1, end, maxBits);
            if (bits < 0) {
                throw new IllegalArgumentException("mask of '" + text + "' must be 0.." + maxBits);
            }
        }
        return (v6 ? ValueDescriptor.INET_FAMILY_V6 : ValueDescriptor.INET_FAMILY_V4) << 8 | bits;
    }

    /**
     * Appends an address in text form; the mask is printed when {@code alwaysMask} (cidr) or when it
     * is shorter than the address (inet), as PostgreSQL does.
     */
    public static StringBuilder appendInet(StringBuilder out, byte[] address, int length, int bits, boolean alwaysMask) {
        if (length == 4) {
            for (int i = 0; i < 4; i++) {
                if (i > 0) {
                    out.append('.');
                }
                out.append(address[i] & 0xFF);
            }
        } else {
            appendIpv6(out, address);
        }
        if (alwaysMask || bits != length * 8) {
            out.append('/').append(bits);
        }
        return out;
    }

    /**
     * Parses a MAC address of {@code digits} hex digits (12 for macaddr, 16 for macaddr8) with any of
     * PostgreSQL's separators ({@code :}, {@code -}, {@code .}).
     */
    public static long parseMac(CharSequence text, int digits) {
        long value = 0;
        int seen = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ':' || c == '-' || c == '.') {
                continue;
            }
            int digit = Character.digit(c, 16);
            if (digit < 0 || ++seen > digits) {
                throw new IllegalArgumentException("not a " + digits / 2 + "-byte MAC address: '" + text + "'");
            }
            value = value << 4 | digit;
        }
        if (seen != digits) {
            throw new IllegalArgumentException("not a " + digits / 2 + "-byte MAC address: '" + text + "'");
        }
        return value;
    }

    /** Appends {@code bytes} bytes of a MAC address as lower-case hex pairs joined by colons. */
    public static StringBuilder appendMac(StringBuilder out, long value, int bytes) {
        for (int i = bytes - 1; i >= 0; i--) {
            int b = (int) (value >>> (8 * i)) & 0xFF;
            out.append(Character.forDigit(b >> 4, 16)).append(Character.forDigit(b & 0xF, 16));
            if (i > 0) {
                out.append(':');
            }
        }
        return out;
    }

    private static boolean parseIpv4(CharSequence text, int from, int to, byte[] out, int outIndex) {
        int at = from;
        for (int octet = 0; octet < 4; octet++) {
            int dot = octet < 3 ? indexOf(text, '.', at, to) : to;
            if (dot < 0) {
                return false;
            }
            int value = parseDecimal(text, at, dot, 255);
            if (value < 0) {
                return false;
            }
            out[outIndex + octet] = (byte) value;
            at = dot + 1;
        }
        return true;
    }

    private static boolean parseIpv6(CharSequence text, int from, int to, byte[] out) {
        int groups = 0;
        int gapAt = -1;
        int at = from;
        if (to - at >= 2 && text.charAt(at) == ':' && text.charAt(at + 1) == ':') {
            gapAt = 0;
            at += 2;
        }
        while (at < to) {
            int groupEnd = at;
            while (groupEnd < to && Character.digit(text.charAt(groupEnd), 16) >= 0) {
                groupEnd++;
            }
            if (groupEnd < to && text.charAt(groupEnd) == '.') {
                if (groups > 6 || !parseIpv4(text, at, to, out, groups * 2)) {
                    return false;
                }
                groups += 2;
                at = to;
                break;
            }
            if (groupEnd == at || groupEnd - at > 4 || groups == 8) {
                return false;
            }
            int value = 0;
            for (int i = at; i < groupEnd; i++) {
                value = value << 4 | Character.digit(text.charAt(i), 16);
            }
            out[groups * 2] = (byte) (value >> 8);
            out[groups * 2 + 1] = (byte) value;
            groups++;
            at = groupEnd;
            if (at == to) {
                break;
            }
            if (text.charAt(at) != ':' || ++at == to) {
                return false;
            }
            if (text.charAt(at) == ':') {
                if (gapAt >= 0) {
                    return false;
                }
                gapAt = groups;
                at++;
            }
        }
        if (gapAt < 0) {
            return groups == 8;
        }
        if (groups > 7) {
            return false;
        }
        int tail = groups - gapAt;
        System.arraycopy(out, gapAt * 2, out, 16 - tail * 2, tail * 2);
        java.util.Arrays.fill(out, gapAt * 2, 16 - tail * 2, (byte) 0);
        return true;
    }

    private static void appendIpv6(StringBuilder out, byte[] address) {
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && group(address, j) == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                out.append("::");
                i += bestLength - 1;
                continue;
            }
            if (i > 0 && i != bestStart + bestLength) {
                out.append(':');
            }
            out.append(Integer.toHexString(group(address, i)));
        }
    }

    private static int group(byte[] address, int index) {
        return (address[index * 2] & 0xFF) << 8 | address[index * 2 + 1] & 0xFF;
    }

    private static int parseDecimal(CharSequence text, int from, int to, int max) {
        if (to <= from || to - from > 3) {
            return -1;
        }
        int value = 0;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value <= max ? value : -1;
    }

    private static int indexOf(CharSequence text, char c) {
        return indexOf(text, c, 0, text.length());
    }

    private static int indexOf(CharSequence text, char c, int from, int to) {
        for (int i = from; i < to; i++) {
            if (text.charAt(i) == c) {
                return i;
            }
        }
        return -1;
    }
}
