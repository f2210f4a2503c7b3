package io.rdmarepl.format.codec;

import static io.rdmarepl.format.codec.RowChangeDescriptor.TUPLE_COLUMN_COUNT_OFFSET;
import static io.rdmarepl.format.codec.RowChangeDescriptor.TUPLE_HEADER_LENGTH;
import static io.rdmarepl.format.codec.RowChangeDescriptor.TUPLE_VALUES_LENGTH_OFFSET;

import io.rdmarepl.format.RecordKind;
import io.rdmarepl.format.ValueTag;
import java.nio.ByteBuffer;

/**
 * The columns of one tuple (old key, old row or new row), in the relation's attribute order. Random
 * access is O(1): the decoder's validation pass recorded every column's offset. Owned by the decoder,
 * reused, valid only during the callback.
 */
public final class TupleView extends ValuesView {
    private final ArrayView arrayView = new ArrayView(this);
    private String section;

    TupleView() {
    }

    public int columnCount() {
        return count;
    }

    /** The array in column {@code i}; the view is reused by the next call on this tuple. */
    public ArrayView array(int i) {
        arrayView.wrap(expect(i, ValueTag.ARRAY), i);
        return arrayView;
    }

    /**
     * A 64-bit hash of column {@code i}'s encoded bytes (tag and payload). Equal encodings hash equal; the
     * applier uses it to tell whether two changes may touch the same row, so a collision only costs ordering.
     */
    public long valueHash(int i) {
        int at = offset(i);
        int end = ValueScanner.skip(buffer, at);
        long h = 0xCBF29CE484222325L ^ (end - at);
        int p = at;
        for (; p + Long.BYTES <= end; p += Long.BYTES) {
            h = (h ^ buffer.getLong(p)) * 0x100000001B3L;
            h ^= h >>> 29;
        }
        for (; p < end; p++) {
            h = (h ^ (buffer.get(p) & 0xFF)) * 0x100000001B3L;
        }
        return h ^ h >>> 32;
    }

    /** Whether column {@code i} is encoded exactly as column {@code j} of {@code other} (tag and payload). */
    public boolean sameEncoding(int i, TupleView other, int j) {
        int at = offset(i);
        int length = ValueScanner.skip(buffer, at) - at;
        int otherAt = other.offset(j);
        int otherLength = ValueScanner.skip(other.buffer, otherAt) - otherAt;
        if (length != otherLength) {
            return false;
        }
        int k = 0;
        for (; k + Long.BYTES <= length; k += Long.BYTES) {
            if (buffer.getLong(at + k) != other.buffer.getLong(otherAt + k)) {
                return false;
            }
        }
        for (; k < length; k++) {
            if (buffer.get(at + k) != other.buffer.get(otherAt + k)) {
                return false;
            }
        }
        return true;
    }

    /** Validates the tuple at {@code at} and records its column offsets; returns the index after it. */
    int wrap(ByteBuffer buffer, int at, int end, ValueScanner scanner, RecordKind kind, int recordOffset, String section) {
        this.buffer = buffer;
        this.kind = kind;
        this.recordOffset = recordOffset;
        this.section = section;
        this.count = 0;
        if (TUPLE_HEADER_LENGTH > end - at) {
            throw FormatErrors.truncated(kind, recordOffset, section + " header needs " + TUPLE_HEADER_LENGTH
                + " bytes, " + Math.max(0, end - at) + " remain");
        }
        int columns = buffer.getInt(at + TUPLE_COLUMN_COUNT_OFFSET);
        int valuesLength = buffer.getInt(at + TUPLE_VALUES_LENGTH_OFFSET);
        int valuesAt = at + TUPLE_HEADER_LENGTH;
        if (valuesLength < 0 || valuesLength > end - valuesAt) {
            FormatErrors.checkLength(kind, recordOffset, valuesAt, end, valuesLength, section);
        }
        if (columns < 0 || columns > valuesLength) {
            throw FormatErrors.corrupt(kind, recordOffset, section + " announces " + columns + " columns in "
                + valuesLength + " bytes");
        }
        int valuesEnd = valuesAt + valuesLength;
        capacity(columns);
        scanner.context(kind, recordOffset, section);
        int p = valuesAt;
        for (int c = 0; c < columns; c++) {
            offsets[c] = p;
            p = scanner.scanColumn(buffer, p, valuesEnd, c);
        }
        if (p != valuesEnd) {
            throw FormatErrors.corrupt(kind, recordOffset, section + " length " + valuesLength
                + " does not match its columns, which end " + (valuesEnd - p) + " bytes early");
        }
        count = columns;
        return valuesEnd;
    }

    @Override
    String name(int i) {
        return section + " column " + i;
    }
}
