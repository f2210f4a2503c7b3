package io.rdmarepl.format.codec;

import java.util.Arrays;

/**
 * One row of {@code COPY ... TO STDOUT} in text format, split into its fields and unescaped, without allocating
 * once its arrays have grown to the widest row. The format (PostgreSQL's COPY reference, "Text Format"): fields
 * separated by a tab, the row ended by a newline; {@code \N} is NULL; a backslash escapes {@code b f n r t v},
 * up to three octal digits, {@code x} and one or two hex digits, and any other character stands for itself
 * ({@code \\}, {@code \t} written as backslash-tab). The unescaped bytes are the column's text output, in the
 * server's encoding (UTF-8 here).
 */
public final class CopyTextRow {
    private byte[] text = new byte[256];
    private int[] starts = new int[16];
    private int[] ends = new int[16];
    private boolean[] nulls = new boolean[16];
    private int fields;

    /**
     * Splits {@code row[0, length)} (the trailing newline optional).
     *
     * @throws IllegalArgumentException on a backslash at the very end of the row
     */
    public CopyTextRow parse(byte[] row, int length) {
        if (length > 0 && row[length - 1] == '\n') {
            length--;
        }
        if (text.length < length) {
            text = Arrays.copyOf(text, Math.max(length, text.length * 2));
        }
        fields = 0;
        int out = 0;
        int fieldStart = 0;
        boolean isNull = false;
        int i = 0;
        while (true) {
            if (i == length || row[i] == '\t') {
                field(fieldStart, out, isNull);
                if (i == length) {
                    return this;
                }
                i++;
                fieldStart = out;
                isNull = false;
                continue;
            }
            byte b = row[i++];
            if (b != '\\') {
                text[out++] = b;
                continue;
            }
            if (i == length) {
                throw new IllegalArgumentException("COPY text row ends in a lone backslash (field " + (fields + 1) + ")");
            }
            byte e = row[i++];
            switch (e) {
                case 'N' -> {
                    // \N alone is NULL; anywhere else it stands for a literal N
                    if (out == fieldStart && !isNull && (i == length || row[i] == '\t')) {
                        isNull = true;
                    } else {
                        text[out++] = 'N';
                    }
                }
                case 'b' -> text[out++] = '\b';
                case 'f' -> text[out++] = '\f';
                case 'n' -> text[out++] = '\n';
                case 'r' -> text[out++] = '\r';
                case 't' -> text[out++] = '\t';
                case 'v' -> text[out++] = 0x0b;
                case 'x' -> {
                    int value = 0;
                    int digits = 0;
                    while (digits < 2 && i < length && hex(row[i]) >= 0) {
                        value = value * 16 + hex(row[i++]);
                        digits++;
                    }
                    text[out++] = digits == 0 ? (byte) 'x' : (byte) value;
                }
                default -> {
                    if (e >= '0' && e <= '7') {
                        int value = e - '0';
                        int digits = 1;
                        while (digits < 3 && i < length && row[i] >= '0' && row[i] <= '7') {
                            value = value * 8 + (row[i++] - '0');
                            digits++;
                        }
                        text[out++] = (byte) value;
                    } else {
                        text[out++] = e;
                    }
                }
            }
        }
    }

    private void field(int start, int end, boolean isNull) {
        if (fields == starts.length) {
            starts = Arrays.copyOf(starts, fields * 2);
            ends = Arrays.copyOf(ends, fields * 2);
            nulls = Arrays.copyOf(nulls, fields * 2);
        }
        starts[fields] = start;
        ends[fields] = end;
        nulls[fields] = isNull;
        fields++;
    }

    private static int hex(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        if (b >= 'a' && b <= 'f') {
            return b - 'a' + 10;
        }
        if (b >= 'A' && b <= 'F') {
            return b - 'A' + 10;
        }
        return -1;
    }

    public int fields() {
        return fields;
    }

    public boolean isNull(int field) {
        return nulls[field];
    }

    /** The unescaped bytes: {@link #start}..{@link #end} of this array. */
    public byte[] text() {
        return text;
    }

    public int start(int field) {
        return starts[field];
    }

    public int end(int field) {
        return ends[field];
    }
}
