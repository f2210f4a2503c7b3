package io.rdmarepl.shipper.encode;

import io.rdmarepl.format.codec.RowWriter;

/**
 * Parses PostgreSQL's array text ({@code {1,NULL,3}}, {@code {{1,2},{3,4}}}, {@code [0:2]={7,8,9}},
 * {@code {"a b","q\"uote"}}) into a typed log-format array: dimensions and lower bounds kept, NULL elements
 * kept (an unquoted {@code NULL}; a quoted {@code "NULL"} is the text). {@link ExactTextConverter} supplies the
 * text, exactly as pgoutput (or the JDBC driver, in snapshots) produced it. Only element kinds whose text form
 * is independent of session settings are parsed ({@link ValueKind#typedArrayElement()}); the caller writes other
 * arrays as a whole text fallback. The delimiter is a comma (every such type's {@code typdelim}).
 *
 * <p>Two passes: the first checks the structure and measures the dimensions, the second writes the elements,
 * so nothing is written for malformed text. Reused per thread; steady state allocates only for float and long
 * numeric elements.
 */
final class ArrayText {
    private static final int MAX_DIMENSIONS = 6;

    private final int[] lengths = new int[MAX_DIMENSIONS];
    private final int[] lowerBounds = new int[MAX_DIMENSIONS];
    private final int[][] shapes = new int[MAX_DIMENSIONS + 1][];
    private final StringBuilder element = new StringBuilder();
    private byte[] bytes = new byte[64];
    private int dimensions;
    private CharSequence text;
    private int pos;
    private boolean declaredBounds;

    ArrayText() {
        for (int d = 0; d <= MAX_DIMENSIONS; d++) {
            int[] shape = new int[d];
            shapes[d] = shape;
        }
    }

    /** Writes {@code arrayText} as an array of {@code kind} elements into {@code w}. */
    void put(RowWriter w, CharSequence arrayText, ValueKind kind) {
        measure(arrayText);
        if (dimensions == 0) {
            w.startArray(kind.tag(), shapes[0], shapes[0]);
        } else if (dimensions == 1 && lowerBounds[0] == 1) {
            w.startArray(kind.tag(), lengths[0]);
        } else {
            int[] l = new int[dimensions];
            int[] b = new int[dimensions];
            System.arraycopy(lengths, 0, l, 0, dimensions);
            System.arraycopy(lowerBounds, 0, b, 0, dimensions);
            w.startArray(kind.tag(), l, b);
        }
        pos = bodyStart;
        writeElements(w, kind);
        w.endArray();
    }

    private int bodyStart;

    private void measure(CharSequence arrayText) {
        text = arrayText;
        pos = 0;
        dimensions = 0;
        declaredBounds = false;
        skipSpace();
        if (pos < text.length() && text.charAt(pos) == '[') {
            declaredBounds = true;
            while (pos < text.length() && text.charAt(pos) == '[') {
                pos++;
                int lower = 1;
                int first = integer();
                int upper = first;
                if (peek() == ':') {
                    pos++;
                    lower = first;
                    upper = integer();
                }
                expect(']');
                if (dimensions == MAX_DIMENSIONS) {
                    throw malformed("more than " + MAX_DIMENSIONS + " dimensions");
                }
                lowerBounds[dimensions] = lower;
                lengths[dimensions] = upper - lower + 1;
                dimensions++;
            }
            expect('=');
            skipSpace();
        }
        bodyStart = pos;
        int declared = dimensions;
        // count the nesting depth of the first element
        int depth = 0;
        int p = pos;
        while (p < text.length() && text.charAt(p) == '{') {
            depth++;
            p++;
            while (p < text.length() && Character.isWhitespace(text.charAt(p))) {
                p++;
            }
        }
        boolean empty = depth == 1 && p < text.length() && text.charAt(p) == '}';
        if (empty) {
            if (declaredBounds) {
                throw malformed("bounds on an empty array");
            }
            dimensions = 0;
            return;
        }
        if (declaredBounds && depth != declared) {
            throw malformed("dimension decoration does not match the braces");
        }
        if (depth == 0 || depth > MAX_DIMENSIONS) {
            throw malformed("no braces or too deep");
        }
        dimensions = depth;
        int[] counted = new int[depth];
        java.util.Arrays.fill(counted, -1);
        scan(0, counted);
        for (int d = 0; d < depth; d++) {
            if (declaredBounds && counted[d] != lengths[d]) {
                throw malformed("dimension " + (d + 1) + " has " + counted[d] + " elements, bounds say " + lengths[d]);
            }
            lengths[d] = counted[d];
            if (!declaredBounds) {
                lowerBounds[d] = 1;
            }
        }
        skipSpace();
        if (pos != text.length()) {
            throw malformed("text after the closing brace");
        }
    }

    /** Pass 1: one brace level; checks that sibling sub-arrays have equal lengths. */
    private void scan(int depth, int[] counted) {
        expect('{');
        int count = 0;
        skipSpace();
        if (peek() == '}') {
            throw malformed("empty sub-array");
        }
        while (true) {
            skipSpace();
            if (depth + 1 < counted.length) {
                scan(depth + 1, counted);
            } else {
                if (peek() == '{') {
                    throw malformed("ragged nesting");
                }
                readElement();
            }
            count++;
            skipSpace();
            char c = next();
            if (c == '}') {
                break;
            }
            if (c != ',') {
                throw malformed("expected , or }");
            }
        }
        if (counted[depth] < 0) {
            counted[depth] = count;
        } else if (counted[depth] != count) {
            throw malformed("sub-arrays of different lengths");
        }
    }

    /** Pass 2: every element in row-major order. */
    private void writeElements(RowWriter w, ValueKind kind) {
        int n = text.length();
        while (pos < n) {
            char c = text.charAt(pos);
            if (c == '{' || c == '}' || c == ',' || Character.isWhitespace(c)) {
                pos++;
                continue;
            }
            if (readElement()) {
                w.putNull();
            } else {
                writeElement(w, kind);
            }
        }
    }

    /** Reads one element into {@link #element}; returns true if it is an unquoted NULL. */
    private boolean readElement() {
        element.setLength(0);
        if (peek() == '"') {
            pos++;
            while (true) {
                char c = next();
                if (c == '\\') {
                    element.append(next());
                } else if (c == '"') {
                    return false;
                } else {
                    element.append(c);
                }
            }
        }
        int n = text.length();
        while (pos < n) {
            char c = text.charAt(pos);
            if (c == ',' || c == '}') {
                break;
            }
            if (c == '\\') {
                pos++;
                element.append(next());
                continue;
            }
            element.append(c);
            pos++;
        }
        int end = element.length();
        while (end > 0 && Character.isWhitespace(element.charAt(end - 1))) {
            end--;
        }
        element.setLength(end);
        if (end == 0) {
            throw malformed("empty unquoted element");
        }
        return end == 4 && (element.charAt(0) | 0x20) == 'n' && (element.charAt(1) | 0x20) == 'u'
            && (element.charAt(2) | 0x20) == 'l' && (element.charAt(3) | 0x20) == 'l';
    }

    private void writeElement(RowWriter w, ValueKind kind) {
        StringBuilder e = element;
        switch (kind) {
            case BOOL -> w.putBool(e.length() > 0 && (e.charAt(0) == 't' || e.charAt(0) == 'T'));
            case INT2 -> w.putInt2((short) Integer.parseInt(e, 0, e.length(), 10));
            case INT4 -> w.putInt4(Integer.parseInt(e, 0, e.length(), 10));
            case INT8 -> w.putInt8(Long.parseLong(e, 0, e.length(), 10));
            case FLOAT4 -> w.putFloat4(Float.parseFloat(e.toString()));
            case FLOAT8 -> w.putFloat8(Double.parseDouble(e.toString()));
            case NUMERIC -> NumericText.put(w, e);
            case TEXT -> w.putText(e);
            case ENUM -> w.putEnum(e);
            case JSON -> w.putJson(e);
            case JSONB -> w.putJsonb(e);
            case UUID -> w.putUuid(e);
            case INET -> w.putInet(e);
            case CIDR -> w.putCidr(e);
            case MACADDR -> w.putMacaddr(e);
            case MACADDR8 -> w.putMacaddr8(e);
            case BYTEA -> {
                int length = hexBytes(e);
                w.putBytes(bytes, 0, length);
            }
            default -> throw new IllegalStateException(kind + " elements are not parsed from array text");
        }
    }

    /** Decodes bytea's hex output form {@code \x00ff} into {@link #bytes}; returns the length. */
    private int hexBytes(CharSequence e) {
        if (e.length() < 2 || e.charAt(0) != '\\' || e.charAt(1) != 'x' || (e.length() & 1) != 0) {
            throw malformed("bytea element not in hex form (bytea_output must be hex)");
        }
        int length = (e.length() - 2) / 2;
        if (bytes.length < length) {
            bytes = new byte[Math.max(length, bytes.length * 2)];
        }
        for (int i = 0; i < length; i++) {
            int hi = Character.digit(e.charAt(2 + 2 * i), 16);
            int lo = Character.digit(e.charAt(3 + 2 * i), 16);
            if ((hi | lo) < 0) {
                throw malformed("bad hex digit in bytea element");
            }
            bytes[i] = (byte) (hi << 4 | lo);
        }
        return length;
    }

    private int integer() {
        int start = pos;
        if (peek() == '-' || peek() == '+') {
            pos++;
        }
        while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
            pos++;
        }
        try {
            return Integer.parseInt(text, start, pos, 10);
        } catch (NumberFormatException e) {
            throw malformed("bad dimension bound");
        }
    }

    private void skipSpace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private char next() {
        if (pos >= text.length()) {
            throw malformed("unexpected end");
        }
        return text.charAt(pos++);
    }

    private void expect(char c) {
        if (next() != c) {
            throw malformed("expected '" + c + "' at " + (pos - 1));
        }
    }

    private IllegalArgumentException malformed(String why) {
        return new IllegalArgumentException("malformed array text (" + why + "): " + text);
    }
}
