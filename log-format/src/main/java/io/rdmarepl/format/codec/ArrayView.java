package io.rdmarepl.format.codec;

import static io.rdmarepl.format.codec.ValueDescriptor.ARRAY_DIMENSIONS_OFFSET;
import static io.rdmarepl.format.codec.ValueDescriptor.ARRAY_DIMENSION_ENTRY_LENGTH;
import static io.rdmarepl.format.codec.ValueDescriptor.ARRAY_DIMENSION_TABLE_OFFSET;
import static io.rdmarepl.format.codec.ValueDescriptor.ARRAY_ELEMENT_TAG_OFFSET;

import io.rdmarepl.format.ValueTag;
import java.util.Objects;

/**
 * An array value: its element type, dimensions and elements in row-major order, each element read
 * with the typed accessors of {@link ValuesView} (a NULL element has tag {@link ValueTag#NULL}).
 * Owned by its {@link TupleView} and reused.
 */
public final class ArrayView extends ValuesView {
    private final TupleView tuple;
    private int at;
    private int column;

    ArrayView(TupleView tuple) {
        this.tuple = tuple;
    }

    public ValueTag elementTag() {
        return ValueTag.ofCode(buffer.get(at + ARRAY_ELEMENT_TAG_OFFSET) & 0xFF);
    }

    /** Number of dimensions; 0 for an empty array. */
    public int dimensions() {
        return buffer.get(at + ARRAY_DIMENSIONS_OFFSET) & 0xFF;
    }

    public int dimensionLength(int dimension) {
        return buffer.getInt(dimensionEntry(dimension));
    }

    public int lowerBound(int dimension) {
        return buffer.getInt(dimensionEntry(dimension) + Integer.BYTES);
    }

    public int elementCount() {
        return count;
    }

    /** Points at the validated array whose tag is at {@code at} and records its element offsets. */
    void wrap(int at, int column) {
        this.buffer = tuple.buffer;
        this.kind = tuple.kind;
        this.recordOffset = tuple.recordOffset;
        this.at = at;
        this.column = column;
        int dimensions = dimensions();
        int elements = dimensions == 0 ? 0 : 1;
        for (int d = 0; d < dimensions; d++) {
            elements *= dimensionLength(d);
        }
        capacity(elements);
        int p = at + ARRAY_DIMENSION_TABLE_OFFSET + dimensions * ARRAY_DIMENSION_ENTRY_LENGTH;
        for (int e = 0; e < elements; e++) {
            offsets[e] = p;
            p = ValueScanner.skip(buffer, p);
        }
        count = elements;
    }

    @Override
    String name(int i) {
        return tuple.name(column) + " element " + i;
    }

    private int dimensionEntry(int dimension) {
        return at + ARRAY_DIMENSION_TABLE_OFFSET + Objects.checkIndex(dimension, dimensions()) * ARRAY_DIMENSION_ENTRY_LENGTH;
    }
}
