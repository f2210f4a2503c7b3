package io.rdmarepl.format.codec;

import static io.rdmarepl.format.codec.FormatErrors.corrupt;
import static io.rdmarepl.format.codec.ValueDescriptor.ARRAY_DIMENSIONS_OFFSET;
import static io.rdmarepl.format.codec.ValueDescriptor.ARRAY_DIMENSION_ENTRY_LENGTH;
import static io.rdmarepl.format.codec.ValueDescriptor.ARRAY_DIMENSION_TABLE_OFFSET;
import static io.rdmarepl.format.codec.ValueDescriptor.ARRAY_ELEMENT_TAG_OFFSET;
import static io.rdmarepl.format.codec.ValueDescriptor.ARRAY_LENGTH_OFFSET;
import static io.rdmarepl.format.codec.ValueDescriptor.MAX_ARRAY_DIMENSIONS;

import io.rdmarepl.format.NumericSpecial;
import io.rdmarepl.format.RecordKind;
import io.rdmarepl.format.ValueTag;
import java.nio.ByteBuffer;

/**
 * The validation pass over values: checks every tag, length and count against the bytes that remain
 * before anything is allocated or looped over, and throws {@link io.rdmarepl.format.FormatException}
 * naming the record, section, column (0-based) and type. Also skips over values already validated.
 */
final class ValueScanner {
    private RecordKind kind;
    private int recordOffset;
    private String section;
    private int column;
    private int element;
    private ValueTag tag;

    void context(RecordKind kind, int recordOffset, String section) {
        this.kind = kind;
        this.recordOffset = recordOffset;
        this.section = section;
    }

    /** Validates the column value at {@code at}; returns the index after it. */
    int scanColumn(ByteBuffer buffer, int at, int end, int column) {
        this.column = column;
        this.element = -1;
        return scan(buffer, at, end, null);
    }

    private int scan(ByteBuffer buffer, int at, int end, ValueTag elementTag) {
        tag = null;
        need(at, end, 1);
        int code = buffer.get(at) & 0xFF;
        tag = ValueTag.ofCode(code);
        if (tag == null) {
            throw corrupt(kind, recordOffset, field() + " has unknown value tag " + code);
        }
        if (elementTag != null && tag != elementTag && tag != ValueTag.NULL) {
            throw corrupt(kind, recordOffset, field() + " is not allowed in an array of " + elementTag.typeName());
        }
        int fixed = ValueDescriptor.fixedLength(tag);
        if (fixed >= 0) {
            need(at, end, fixed);
            if (tag == ValueTag.BOOL && (buffer.get(at + 1) & 0xFE) != 0) {
                throw corrupt(kind, recordOffset, field() + " holds " + buffer.get(at + 1) + ", not 0 or 1");
            }
            return at + fixed;
        }
        switch (tag) {
            case TEXT:
            case JSON:
            case JSONB:
            case ENUM:
            case BYTEA:
                return varlen(buffer, at, end, ValueDescriptor.VARLEN_LENGTH_OFFSET);
            case TEXT_FALLBACK:
                return varlen(buffer, at, end, ValueDescriptor.FALLBACK_LENGTH_OFFSET);
            case NUMERIC:
                return numeric(buffer, at, end);
            case INET:
            case CIDR:
                return inet(buffer, at, end);
            case ARRAY:
                if (elementTag != null) {
                    throw corrupt(kind, recordOffset, field() + ": arrays do not nest");
                }
                return array(buffer, at, end);
            default:
                throw new IllegalStateException("no layout for " + tag);
        }
    }

    private int varlen(ByteBuffer buffer, int at, int end, int lengthOffset) {
        int bytesAt = at + lengthOffset + Integer.BYTES;
        need(at, end, bytesAt - at);
        int length = buffer.getInt(at + lengthOffset);
        checkLength(bytesAt, end, length);
        return bytesAt + length;
    }

    private int numeric(ByteBuffer buffer, int at, int end) {
        need(at, end, ValueDescriptor.NUMERIC_DIGITS_OFFSET);
        int code = buffer.get(at + ValueDescriptor.NUMERIC_SPECIAL_OFFSET) & 0xFF;
        NumericSpecial special = NumericSpecial.ofCode(code);
        int scale = buffer.getInt(at + ValueDescriptor.NUMERIC_SCALE_OFFSET);
        int length = buffer.getInt(at + ValueDescriptor.NUMERIC_LENGTH_OFFSET);
        if (special == null) {
            throw corrupt(kind, recordOffset, field() + " has unknown special code " + code);
        }
        if (special != NumericSpecial.NONE && (length != 0 || scale != 0)) {
            throw corrupt(kind, recordOffset, field() + " is " + special + " but has scale " + scale + ", length " + length);
        }
        if (special == NumericSpecial.NONE && length == 0) {
            throw corrupt(kind, recordOffset, field() + " is finite but has no digits");
        }
        int digitsAt = at + ValueDescriptor.NUMERIC_DIGITS_OFFSET;
        checkLength(digitsAt, end, length);
        return digitsAt + length;
    }

    private int inet(ByteBuffer buffer, int at, int end) {
        need(at, end, ValueDescriptor.INET_ADDRESS_OFFSET);
        int family = buffer.get(at + ValueDescriptor.INET_FAMILY_OFFSET) & 0xFF;
        int bits = buffer.get(at + ValueDescriptor.INET_BITS_OFFSET) & 0xFF;
        int length = ValueDescriptor.inetAddressLength(family);
        if (length < 0 || bits > length * 8) {
            throw corrupt(kind, recordOffset, field() + " has family " + family + " and mask " + bits);
        }
        need(at, end, ValueDescriptor.INET_ADDRESS_OFFSET + length);
        return at + ValueDescriptor.INET_ADDRESS_OFFSET + length;
    }

    private int array(ByteBuffer buffer, int at, int end) {
        need(at, end, ARRAY_DIMENSION_TABLE_OFFSET);
        int elementCode = buffer.get(at + ARRAY_ELEMENT_TAG_OFFSET) & 0xFF;
        ValueTag elementTag = ValueTag.ofCode(elementCode);
        int dimensions = buffer.get(at + ARRAY_DIMENSIONS_OFFSET) & 0xFF;
        if (elementTag == null || !elementTag.isArrayElementType() || dimensions > MAX_ARRAY_DIMENSIONS) {
            throw corrupt(kind, recordOffset, field() + " has element tag " + elementCode + " and " + dimensions + " dimensions");
        }
        int length = buffer.getInt(at + ARRAY_LENGTH_OFFSET);
        int tableAt = at + ARRAY_DIMENSION_TABLE_OFFSET;
        checkLength(tableAt, end, length);
        int arrayEnd = tableAt + length;
        int elementsAt = tableAt + dimensions * ARRAY_DIMENSION_ENTRY_LENGTH;
        need(tableAt, arrayEnd, (long) dimensions * ARRAY_DIMENSION_ENTRY_LENGTH);
        long count = dimensions == 0 ? 0 : 1;
        for (int d = 0; d < dimensions; d++) {
            int dimensionLength = buffer.getInt(tableAt + d * ARRAY_DIMENSION_ENTRY_LENGTH);
            if (dimensionLength < 0) {
                throw corrupt(kind, recordOffset, field() + " dimension " + d + " has negative length " + dimensionLength);
            }
            count = Math.min(count * dimensionLength, Integer.MAX_VALUE + 1L);
        }
        if (count > arrayEnd - elementsAt) {
            throw corrupt(kind, recordOffset, field() + " announces " + count + " elements in "
                + (arrayEnd - elementsAt) + " bytes");
        }
        ValueTag arrayTag = tag;
        int p = elementsAt;
        for (int e = 0; e < count; e++) {
            element = e;
            p = scan(buffer, p, arrayEnd, elementTag);
        }
        element = -1;
        tag = arrayTag;
        if (p != arrayEnd) {
            throw corrupt(kind, recordOffset, field() + " length " + length + " does not match its elements, which end "
                + (arrayEnd - p) + " bytes early");
        }
        return arrayEnd;
    }

    private void need(int at, int end, long bytes) {
        if (bytes > end - at) {
            FormatErrors.need(kind, recordOffset, at, end, bytes, field());
        }
    }

    private void checkLength(int bytesAt, int end, int length) {
        if (length < 0 || length > end - bytesAt) {
            FormatErrors.checkLength(kind, recordOffset, bytesAt, end, length, field());
        }
    }

    private String field() {
        StringBuilder field = new StringBuilder(section).append(" column ").append(column);
        if (element >= 0) {
            field.append(" (array) element ").append(element);
        }
        return tag == null ? field.toString() : field.append(" (").append(tag.typeName()).append(')').toString();
    }

    /** Index after the already validated value at {@code at}. */
    static int skip(ByteBuffer buffer, int at) {
        ValueTag tag = ValueTag.ofCode(buffer.get(at) & 0xFF);
        int fixed = ValueDescriptor.fixedLength(tag);
        if (fixed >= 0) {
            return at + fixed;
        }
        switch (tag) {
            case TEXT_FALLBACK:
                return at + ValueDescriptor.FALLBACK_BYTES_OFFSET + buffer.getInt(at + ValueDescriptor.FALLBACK_LENGTH_OFFSET);
            case NUMERIC:
                return at + ValueDescriptor.NUMERIC_DIGITS_OFFSET + buffer.getInt(at + ValueDescriptor.NUMERIC_LENGTH_OFFSET);
            case INET:
            case CIDR:
                return at + ValueDescriptor.INET_ADDRESS_OFFSET
                    + ValueDescriptor.inetAddressLength(buffer.get(at + ValueDescriptor.INET_FAMILY_OFFSET));
            case ARRAY:
                return at + ARRAY_DIMENSION_TABLE_OFFSET + buffer.getInt(at + ARRAY_LENGTH_OFFSET);
            default:
                return at + ValueDescriptor.VARLEN_BYTES_OFFSET + buffer.getInt(at + ValueDescriptor.VARLEN_LENGTH_OFFSET);
        }
    }
}
