package io.rdmarepl.format.codec;

import io.rdmarepl.format.FormatException;
import io.rdmarepl.format.RecordKind;

/** Builds decoder exceptions (failure path only, so allocation is fine here). */
final class FormatErrors {
    private FormatErrors() {
    }

    /** "truncated Insert record at offset 48: {detail}". */
    static FormatException truncated(RecordKind kind, int recordOffset, String detail) {
        return new FormatException(kind, recordOffset, "truncated " + name(kind) + " at offset " + recordOffset + ": " + detail);
    }

    /** "corrupt Insert record at offset 48: {detail}". */
    static FormatException corrupt(RecordKind kind, int recordOffset, String detail) {
        return new FormatException(kind, recordOffset, "corrupt " + name(kind) + " at offset " + recordOffset + ": " + detail);
    }

    /** Fails unless {@code bytes} bytes lie between {@code at} and {@code end}. */
    static void need(RecordKind kind, int recordOffset, int at, int end, long bytes, String field) {
        if (bytes > end - at) {
            throw truncated(kind, recordOffset, field + " needs " + bytes + " bytes, " + Math.max(0, end - at) + " remain");
        }
    }

    /** Fails unless a length field is non-negative and its bytes lie before {@code end}. */
    static void checkLength(RecordKind kind, int recordOffset, int bytesAt, int end, int length, String field) {
        if (length < 0) {
            throw corrupt(kind, recordOffset, field + " has negative length " + length);
        }
        if (length > end - bytesAt) {
            throw truncated(kind, recordOffset, field + " length " + length + " exceeds remaining "
                + Math.max(0, end - bytesAt) + " bytes");
        }
    }

    private static String name(RecordKind kind) {
        return kind == null ? "record" : kind.displayName() + " record";
    }
}
