package io.rdmarepl.format.codec;

import io.rdmarepl.format.OldTupleKind;
import io.rdmarepl.format.RecordKind;
import java.nio.ByteBuffer;

/**
 * An Insert, Update or Delete: the relation, the old key or old row when the source sent one, and
 * the new row for Insert and Update. Owned by the decoder, reused, valid only during the callback.
 */
public final class RowChangeView {
    private final TupleView oldTuple = new TupleView();
    private final TupleView newTuple = new TupleView();
    private RecordKind kind;
    private int relationId;
    private OldTupleKind oldTupleKind;

    RowChangeView() {
    }

    public RecordKind kind() {
        return kind;
    }

    public int relationId() {
        return relationId;
    }

    /** NONE, KEY (replica identity columns only) or FULL (the whole old row). */
    public OldTupleKind oldTupleKind() {
        return oldTupleKind;
    }

    public boolean hasOldTuple() {
        return oldTupleKind != OldTupleKind.NONE;
    }

    /** The old key or old row; throws if {@link #hasOldTuple()} is false. */
    public TupleView oldTuple() {
        if (!hasOldTuple()) {
            throw new IllegalStateException(kind.displayName() + " of relation " + relationId + " has no old tuple");
        }
        return oldTuple;
    }

    public boolean hasNewTuple() {
        return kind != RecordKind.DELETE;
    }

    /** The new row; throws for a Delete. */
    public TupleView newTuple() {
        if (!hasNewTuple()) {
            throw new IllegalStateException("a Delete has no new tuple");
        }
        return newTuple;
    }

    /** Validates the body at {@code [recordOffset + header, end)}. */
    void wrap(ByteBuffer buffer, int recordOffset, int end, RecordKind kind, int flags, ValueScanner scanner) {
        this.kind = kind;
        OldTupleKind old = OldTupleKind.ofCode(flags & RowChangeDescriptor.OLD_TUPLE_KIND_MASK);
        if (old == null || (flags & ~RowChangeDescriptor.OLD_TUPLE_KIND_MASK) != 0
            || kind == RecordKind.INSERT && old != OldTupleKind.NONE || kind == RecordKind.DELETE && old == OldTupleKind.NONE) {
            throw FormatErrors.corrupt(kind, recordOffset, "flags " + flags + " are not valid for " + kind.displayName());
        }
        int p = recordOffset + RowChangeDescriptor.RELATION_ID_OFFSET;
        if (Integer.BYTES > end - p) {
            FormatErrors.need(kind, recordOffset, p, end, Integer.BYTES, "relationId");
        }
        relationId = buffer.getInt(p);
        p += Integer.BYTES;
        oldTupleKind = old;
        if (old != OldTupleKind.NONE) {
            p = oldTuple.wrap(buffer, p, end, scanner, kind, recordOffset, old == OldTupleKind.KEY ? "old key" : "old tuple");
        }
        if (kind != RecordKind.DELETE) {
            p = newTuple.wrap(buffer, p, end, scanner, kind, recordOffset, "new tuple");
        }
        if (p != end) {
            throw FormatErrors.corrupt(kind, recordOffset, "body has " + (end - p) + " bytes after its last tuple");
        }
    }
}
