package io.rdmarepl.format.codec;

import static io.rdmarepl.format.codec.RowChangeDescriptor.TUPLE_HEADER_LENGTH;
import static io.rdmarepl.format.codec.ValueDescriptor.ARRAY_DIMENSION_ENTRY_LENGTH;
import static io.rdmarepl.format.codec.ValueDescriptor.ARRAY_DIMENSION_TABLE_OFFSET;
import static io.rdmarepl.format.codec.ValueDescriptor.ARRAY_LENGTH_OFFSET;
import static io.rdmarepl.format.codec.ValueDescriptor.MAX_ARRAY_DIMENSIONS;

import io.rdmarepl.format.OldTupleKind;
import io.rdmarepl.format.RecordKind;
import io.rdmarepl.format.ValueTag;
import java.nio.ByteBuffer;

/**
 * Writes the tuples of one Insert, Update or Delete, column by column in attribute order; obtained from
 * {@link RecordEncoder#startInsert}, {@link RecordEncoder#startUpdate} or {@link RecordEncoder#startDelete}
 * and reused for every record (no allocation in steady state). An Update or Delete with an old tuple
 * starts in the old tuple section; an Update moves to the new tuple with {@link #startNewTuple()}.
 * {@link #finish()} returns the record's length.
 *
 * <p>Every put fails with {@link io.rdmarepl.format.RecordCapacityException} naming the column when the
 * caller's {@code maxLength} is too small, before writing anything past it. Not thread-safe.
 */
public final class RowWriter extends ValueWriter {
    private static final int IDLE = 0;
    private static final int OLD = 1;
    private static final int NEW = 2;

    private int section = IDLE;
    private OldTupleKind oldKind;
    private int tupleStart;
    private int columnCount;
    private int arrayStart = -1;
    private ValueTag elementTag;
    private int expectedElements;
    private int elementCount;
    private ValueTag fieldTag;

    RowWriter() {
    }

    RowWriter start(ByteBuffer target, int offset, int maxLength, RecordKind kind, int relationId, OldTupleKind old) {
        if (kind == RecordKind.INSERT && old != OldTupleKind.NONE || kind == RecordKind.DELETE && old == OldTupleKind.NONE) {
            throw new IllegalArgumentException(kind.displayName() + " cannot have old tuple kind " + old);
        }
        section = IDLE;
        arrayStart = -1;
        fieldTag = null;
        oldKind = old;
        beginRecord(target, offset, maxLength, kind, old.code());
        buffer.putInt(ensure(Integer.BYTES), relationId);
        position += Integer.BYTES;
        openTuple(old == OldTupleKind.NONE ? NEW : OLD);
        return this;
    }

    /** Ends the old key / old tuple of an Update and starts its new tuple. */
    public RowWriter startNewTuple() {
        if (kind != RecordKind.UPDATE || section != OLD || arrayStart >= 0) {
            throw new IllegalStateException("startNewTuple() belongs after the old tuple of an Update, not in "
                + describeState());
        }
        closeTuple();
        openTuple(NEW);
        return this;
    }

    /** Completes the record and returns its length in bytes, header included. */
    public int finish() {
        if (section == IDLE || arrayStart >= 0 || kind == RecordKind.UPDATE && section == OLD) {
            throw new IllegalStateException("cannot finish " + describeState());
        }
        closeTuple();
        section = IDLE;
        return endRecord();
    }


    /** Starts a one-dimensional array with lower bound 1; put its elements, then {@link #endArray()}. */
    public RowWriter startArray(ValueTag elementTag, int length) {
        slot(ValueTag.ARRAY);
        checkArrayStart(elementTag, 1);
        writeArrayHeader(elementTag, 1, length);
        buffer.putInt(arrayStart + ARRAY_DIMENSION_TABLE_OFFSET, length);
        buffer.putInt(arrayStart + ARRAY_DIMENSION_TABLE_OFFSET + Integer.BYTES, 1);
        return this;
    }

    /**
     * Starts an array of {@code lengths.length} dimensions (0 for an empty array); elements follow in
     * row-major order, then {@link #endArray()}. The arrays are read, not kept.
     */
    public RowWriter startArray(ValueTag elementTag, int[] lengths, int[] lowerBounds) {
        slot(ValueTag.ARRAY);
        int dimensions = lengths.length;
        checkArrayStart(elementTag, dimensions);
        if (lowerBounds.length != dimensions) {
            throw new IllegalArgumentException(describeField() + ": " + dimensions + " lengths but "
                + lowerBounds.length + " lower bounds");
        }
        long elements = dimensions == 0 ? 0 : 1;
        for (int length : lengths) {
            if (length < 0) {
                throw new IllegalArgumentException(describeField() + ": negative dimension length " + length);
            }
            elements *= length;
            if (elements > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(describeField() + ": more than 2^31 elements");
            }
        }
        writeArrayHeader(elementTag, dimensions, (int) elements);
        for (int d = 0; d < dimensions; d++) {
            int entry = arrayStart + ARRAY_DIMENSION_TABLE_OFFSET + d * ARRAY_DIMENSION_ENTRY_LENGTH;
            buffer.putInt(entry, lengths[d]);
            buffer.putInt(entry + Integer.BYTES, lowerBounds[d]);
        }
        return this;
    }

    /** Ends the open array; every element announced by its dimensions must have been put. */
    public RowWriter endArray() {
        if (arrayStart < 0 || elementCount != expectedElements) {
            throw new IllegalStateException("cannot end array in " + describeState()
                + (arrayStart < 0 ? "" : ": " + elementCount + " of " + expectedElements + " elements put"));
        }
        buffer.putInt(arrayStart + ARRAY_LENGTH_OFFSET, position - (arrayStart + ARRAY_DIMENSION_TABLE_OFFSET));
        arrayStart = -1;
        return this;
    }

    @Override
    RowWriter self() {
        return this;
    }

    @Override
    String describeField() {
        if (section == IDLE) {
            return "header";
        }
        StringBuilder field = new StringBuilder(sectionName()).append(' ');
        if (fieldTag == null) {
            return field.append("header").toString();
        }
        if (arrayStart >= 0) {
            field.append("column ").append(columnCount - 1).append(" (array) element ").append(elementCount);
        } else {
            field.append("column ").append(columnCount);
        }
        return field.append(" (").append(fieldTag.typeName()).append(')').toString();
    }


    private String describeState() {
        return section == IDLE ? "no open row change" : kind.displayName() + " record in its " + sectionName()
            + (arrayStart >= 0 ? " inside an array" : "");
    }

    private String sectionName() {
        return section == NEW ? "new tuple" : oldKind == OldTupleKind.KEY ? "old key" : "old tuple";
    }

    private void openTuple(int nextSection) {
        section = nextSection;
        fieldTag = null;
        tupleStart = ensure(TUPLE_HEADER_LENGTH);
        columnCount = 0;
        position = tupleStart + TUPLE_HEADER_LENGTH;
    }

    private void closeTuple() {
        buffer.putInt(tupleStart + RowChangeDescriptor.TUPLE_COLUMN_COUNT_OFFSET, columnCount);
        buffer.putInt(tupleStart + RowChangeDescriptor.TUPLE_VALUES_LENGTH_OFFSET, position - tupleStart - TUPLE_HEADER_LENGTH);
    }

    @Override
    void slot(ValueTag tag) {
        if (section == IDLE) {
            throw new IllegalStateException("no row change started: call RecordEncoder.startInsert/Update/Delete first");
        }
        if (arrayStart >= 0) {
            if (tag != elementTag && tag != ValueTag.NULL) {
                throw new IllegalArgumentException(describeState() + ": an array of " + elementTag.typeName()
                    + " cannot hold a " + tag.typeName() + " element");
            }
            if (elementCount == expectedElements) {
                throw new IllegalStateException(describeState() + ": the array already has all "
                    + expectedElements + " elements");
            }
        }
        fieldTag = tag;
    }

    @Override
    int reserve(long bytes) {
        int at = ensure(bytes);
        if (arrayStart >= 0) {
            elementCount++;
        } else {
            columnCount++;
        }
        position = at + (int) bytes;
        return at;
    }


    private void checkArrayStart(ValueTag elementTag, int dimensions) {
        if (arrayStart >= 0) {
            throw new IllegalStateException(describeState() + ": arrays do not nest, use dimensions");
        }
        if (!elementTag.isArrayElementType()) {
            throw new IllegalArgumentException(describeField() + ": " + elementTag.typeName() + " cannot be an element type");
        }
        if (dimensions > MAX_ARRAY_DIMENSIONS) {
            throw new IllegalArgumentException(describeField() + ": " + dimensions + " dimensions exceed "
                + MAX_ARRAY_DIMENSIONS);
        }
    }

    private void writeArrayHeader(ValueTag elementTag, int dimensions, int elements) {
        int at = reserve(ARRAY_DIMENSION_TABLE_OFFSET + (long) dimensions * ARRAY_DIMENSION_ENTRY_LENGTH);
        buffer.put(at, (byte) ValueTag.ARRAY.code());
        buffer.put(at + ValueDescriptor.ARRAY_ELEMENT_TAG_OFFSET, (byte) elementTag.code());
        buffer.put(at + ValueDescriptor.ARRAY_DIMENSIONS_OFFSET, (byte) dimensions);
        this.arrayStart = at;
        this.elementTag = elementTag;
        this.expectedElements = elements;
        this.elementCount = 0;
    }
}
