package io.rdmarepl.format.record;

import io.rdmarepl.format.NumericSpecial;
import io.rdmarepl.format.OldTupleKind;
import io.rdmarepl.format.ValueTag;
import io.rdmarepl.format.codec.ArrayView;
import io.rdmarepl.format.codec.CopyChunkView;
import io.rdmarepl.format.codec.RecordHandler;
import io.rdmarepl.format.codec.RelationView;
import io.rdmarepl.format.codec.RowChangeView;
import io.rdmarepl.format.codec.SequenceView;
import io.rdmarepl.format.codec.TruncateView;
import io.rdmarepl.format.codec.TupleView;
import io.rdmarepl.format.codec.ValuesView;
import java.util.ArrayList;
import java.util.List;

/**
 * A handler that copies each decoded record into an immutable {@link ChangeRecord} (allocating:
 * control plane and tests). The latest one is {@link #last()}.
 */
public final class RecordMaterializer implements RecordHandler {
    private ChangeRecord last;

    /** The record materialised by the latest decode, or null. */
    public ChangeRecord last() {
        return last;
    }

    @Override
    public void onBegin(long txId, long commitLsn, long commitTimeUs) {
        last = new ChangeRecord.Begin(txId, commitLsn, commitTimeUs);
    }

    @Override
    public void onCommit(long txId, long commitLsn, long endLsn, long commitTimeUs) {
        last = new ChangeRecord.Commit(txId, commitLsn, endLsn, commitTimeUs);
    }

    @Override
    public void onHeartbeat(long timeUs, long lastLsn) {
        last = new ChangeRecord.Heartbeat(timeUs, lastLsn);
    }

    @Override
    public void onRelation(RelationView relation) {
        List<Column> columns = new ArrayList<>(relation.columnCount());
        for (int i = 0; i < relation.columnCount(); i++) {
            columns.add(new Column(relation.columnName(i), relation.columnTypeOid(i), relation.columnTypeName(i),
                relation.columnTypeModifier(i), relation.isKeyColumn(i)));
        }
        last = new ChangeRecord.Relation(relation.relationId(), relation.schema(), relation.table(),
            relation.replicaIdentity(), columns);
    }

    @Override
    public void onInsert(RowChangeView insert) {
        last = new ChangeRecord.Insert(insert.relationId(), tuple(insert.newTuple()));
    }

    @Override
    public void onUpdate(RowChangeView update) {
        Tuple old = update.hasOldTuple() ? tuple(update.oldTuple()) : null;
        last = new ChangeRecord.Update(update.relationId(), update.oldTupleKind(), old, tuple(update.newTuple()));
    }

    @Override
    public void onDelete(RowChangeView delete) {
        last = new ChangeRecord.Delete(delete.relationId(), delete.oldTupleKind(), tuple(delete.oldTuple()));
    }

    @Override
    public void onTruncate(TruncateView truncate) {
        List<Integer> ids = new ArrayList<>(truncate.relationCount());
        for (int i = 0; i < truncate.relationCount(); i++) {
            ids.add(truncate.relationId(i));
        }
        last = new ChangeRecord.Truncate(truncate.cascade(), truncate.restartIdentity(), ids);
    }

    @Override
    public void onSequence(SequenceView sequence) {
        last = new ChangeRecord.Sequence(sequence.schema(), sequence.name(), sequence.lastValue(), sequence.isCalled(),
            sequence.readTimeUs());
    }

    @Override
    public void onCopyChunk(CopyChunkView chunk) {
        List<Integer> columns = new ArrayList<>(chunk.columnCount());
        for (int k = 0; k < chunk.columnCount(); k++) {
            columns.add(chunk.column(k));
        }
        byte[] text = new byte[chunk.textLength()];
        chunk.buffer().get(chunk.textOffset(), text);
        last = new ChangeRecord.CopyChunk(chunk.relationId(), columns, chunk.rowCount(), text);
    }

    /** Copies every column of a tuple. */
    public static Tuple tuple(TupleView view) {
        List<Value> values = new ArrayList<>(view.columnCount());
        for (int i = 0; i < view.columnCount(); i++) {
            values.add(view.tag(i) == ValueTag.ARRAY ? array(view.array(i)) : value(view, i));
        }
        return new Tuple(values);
    }

    /** Copies one scalar value (not an array). */
    public static Value value(ValuesView view, int i) {
        ValueTag tag = view.tag(i);
        switch (tag) {
            case NULL: return Value.NULL;
            case UNCHANGED_TOAST: return Value.UNCHANGED_TOAST;
            case BOOL: return new Value.Bool(view.bool(i));
            case INT2: return new Value.Int2(view.int2(i));
            case INT4: return new Value.Int4(view.int4(i));
            case INT8: return new Value.Int8(view.int8(i));
            case FLOAT4: return new Value.Float4(view.float4(i));
            case FLOAT8: return new Value.Float8(view.float8(i));
            case NUMERIC:
                return view.numericSpecial(i) == NumericSpecial.NONE
                    ? new Value.Numeric(view.numeric(i)) : new Value.NonFiniteNumeric(view.numericSpecial(i));
            case TEXT: return new Value.Text(view.text(i));
            case BYTEA: return new Value.Bytea(view.bytes(i));
            case DATE: return new Value.Date(view.date(i));
            case TIME: return new Value.Time(view.time(i));
            case TIMETZ: return new Value.TimeTz(view.timeTzMicros(i), view.timeTzOffsetSeconds(i));
            case TIMESTAMP: return new Value.Timestamp(view.timestamp(i));
            case TIMESTAMPTZ: return new Value.TimestampTz(view.timestampTz(i));
            case INTERVAL: return new Value.Interval(view.intervalMonths(i), view.intervalDays(i), view.intervalMicros(i));
            case UUID: return new Value.Uuid(view.uuidMostSignificantBits(i), view.uuidLeastSignificantBits(i));
            case JSON: return new Value.Json(view.text(i));
            case JSONB: return new Value.Jsonb(view.text(i));
            case INET:
            case CIDR:
                byte[] address = new byte[view.inetAddressLength(i)];
                view.copyInetAddress(i, address, 0);
                return new Value.Inet(tag == ValueTag.CIDR, address, view.inetBits(i));
            case MACADDR: return new Value.Macaddr(false, view.macaddr(i));
            case MACADDR8: return new Value.Macaddr(true, view.macaddr(i));
            case ENUM: return new Value.EnumLabel(view.text(i));
            case TEXT_FALLBACK: return new Value.TextFallback(view.fallbackTypeOid(i), view.text(i));
            default: throw new IllegalArgumentException("value " + i + " is " + tag.typeName() + ", not a scalar");
        }
    }

    private static Value array(ArrayView view) {
        int dimensions = view.dimensions();
        int[] lengths = new int[dimensions];
        int[] lowerBounds = new int[dimensions];
        for (int d = 0; d < dimensions; d++) {
            lengths[d] = view.dimensionLength(d);
            lowerBounds[d] = view.lowerBound(d);
        }
        List<Value> elements = new ArrayList<>(view.elementCount());
        for (int e = 0; e < view.elementCount(); e++) {
            elements.add(value(view, e));
        }
        return new Value.Array(view.elementTag(), lengths, lowerBounds, elements);
    }
}
