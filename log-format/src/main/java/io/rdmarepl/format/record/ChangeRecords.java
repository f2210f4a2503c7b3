package io.rdmarepl.format.record;

import io.rdmarepl.format.codec.RecordDecoder;
import io.rdmarepl.format.codec.RecordEncoder;
import io.rdmarepl.format.codec.RelationWriter;
import io.rdmarepl.format.codec.RowWriter;
import java.nio.ByteBuffer;
import java.util.List;

/** Encodes a {@link ChangeRecord} through the codec's public writers, and decodes one back (allocating). */
public final class ChangeRecords {
    private ChangeRecords() {
    }

    /** Encodes {@code record} into {@code (buffer, offset, maxLength)}; returns its length. */
    public static int encode(RecordEncoder encoder, ChangeRecord record, ByteBuffer buffer, int offset, int maxLength) {
        if (record instanceof ChangeRecord.Begin r) {
            return encoder.encodeBegin(buffer, offset, maxLength, r.txId(), r.commitLsn(), r.commitTimeUs());
        } else if (record instanceof ChangeRecord.Commit r) {
            return encoder.encodeCommit(buffer, offset, maxLength, r.txId(), r.commitLsn(), r.endLsn(), r.commitTimeUs());
        } else if (record instanceof ChangeRecord.Heartbeat r) {
            return encoder.encodeHeartbeat(buffer, offset, maxLength, r.timeUs(), r.lastLsn());
        } else if (record instanceof ChangeRecord.Sequence r) {
            return encoder.encodeSequence(buffer, offset, maxLength, r.schema(), r.name(), r.lastValue(), r.isCalled(),
                r.readTimeUs());
        } else if (record instanceof ChangeRecord.Truncate r) {
            int[] ids = r.relationIds().stream().mapToInt(Integer::intValue).toArray();
            return encoder.encodeTruncate(buffer, offset, maxLength, r.cascade(), r.restartIdentity(), ids, ids.length);
        } else if (record instanceof ChangeRecord.CopyChunk r) {
            int[] columns = r.columns().stream().mapToInt(Integer::intValue).toArray();
            byte[] text = r.text();
            return encoder.encodeCopyChunk(buffer, offset, maxLength, r.relationId(), columns, columns.length, r.rowCount(),
                ByteBuffer.wrap(text), 0, text.length);
        } else if (record instanceof ChangeRecord.Relation r) {
            RelationWriter writer = encoder.startRelation(buffer, offset, maxLength, r.relationId(), r.schema(), r.table(),
                r.replicaIdentity());
            for (Column c : r.columns()) {
                writer.putColumn(c.name(), c.typeOid(), c.typeName(), c.typeModifier(), c.key());
            }
            return writer.finish();
        } else if (record instanceof ChangeRecord.Insert r) {
            return putAll(encoder.startInsert(buffer, offset, maxLength, r.relationId()), r.newTuple()).finish();
        } else if (record instanceof ChangeRecord.Update r) {
            RowWriter writer = encoder.startUpdate(buffer, offset, maxLength, r.relationId(), r.oldTupleKind());
            if (r.oldTuple() != null) {
                putAll(writer, r.oldTuple()).startNewTuple();
            }
            return putAll(writer, r.newTuple()).finish();
        } else if (record instanceof ChangeRecord.Delete r) {
            return putAll(encoder.startDelete(buffer, offset, maxLength, r.relationId(), r.oldTupleKind()), r.oldTuple())
                .finish();
        }
        throw new IllegalArgumentException("unknown record " + record);
    }

    /** Decodes the record at {@code (buffer, offset, length)} into a new {@link ChangeRecord}. */
    public static ChangeRecord decode(RecordDecoder decoder, ByteBuffer buffer, int offset, int length) {
        RecordMaterializer materializer = new RecordMaterializer();
        decoder.decode(buffer, offset, length, materializer);
        return materializer.last();
    }

    /** Puts every value of {@code tuple} in order. */
    public static RowWriter putAll(RowWriter writer, Tuple tuple) {
        for (Value value : tuple.values()) {
            put(writer, value);
        }
        return writer;
    }

    /** Puts one value (an array with all its elements). */
    public static RowWriter put(RowWriter w, Value value) {
        if (value instanceof Value.Null) {
            return w.putNull();
        } else if (value instanceof Value.UnchangedToast) {
            return w.putUnchangedToast();
        } else if (value instanceof Value.Bool v) {
            return w.putBool(v.value());
        } else if (value instanceof Value.Int2 v) {
            return w.putInt2(v.value());
        } else if (value instanceof Value.Int4 v) {
            return w.putInt4(v.value());
        } else if (value instanceof Value.Int8 v) {
            return w.putInt8(v.value());
        } else if (value instanceof Value.Float4 v) {
            return w.putFloat4(v.value());
        } else if (value instanceof Value.Float8 v) {
            return w.putFloat8(v.value());
        } else if (value instanceof Value.Numeric v) {
            return w.putNumeric(v.value());
        } else if (value instanceof Value.NonFiniteNumeric v) {
            return w.putNumericSpecial(v.special());
        } else if (value instanceof Value.Text v) {
            return w.putText(v.value());
        } else if (value instanceof Value.Bytea v) {
            return w.putBytes(v.value());
        } else if (value instanceof Value.Date v) {
            return w.putDate(v.days());
        } else if (value instanceof Value.Time v) {
            return w.putTime(v.micros());
        } else if (value instanceof Value.TimeTz v) {
            return w.putTimeTz(v.micros(), v.offsetSeconds());
        } else if (value instanceof Value.Timestamp v) {
            return w.putTimestamp(v.micros());
        } else if (value instanceof Value.TimestampTz v) {
            return w.putTimestampTz(v.micros());
        } else if (value instanceof Value.Interval v) {
            return w.putInterval(v.months(), v.days(), v.micros());
        } else if (value instanceof Value.Uuid v) {
            return w.putUuid(v.mostSignificantBits(), v.leastSignificantBits());
        } else if (value instanceof Value.Json v) {
            return w.putJson(v.value());
        } else if (value instanceof Value.Jsonb v) {
            return w.putJsonb(v.value());
        } else if (value instanceof Value.Inet v) {
            return v.cidr() ? w.putCidr(v.address(), v.bits()) : w.putInet(v.address(), v.bits());
        } else if (value instanceof Value.Macaddr v) {
            return v.eightBytes() ? w.putMacaddr8(v.value()) : w.putMacaddr(v.value());
        } else if (value instanceof Value.EnumLabel v) {
            return w.putEnum(v.label());
        } else if (value instanceof Value.TextFallback v) {
            return w.putTextFallback(v.typeOid(), v.text());
        } else if (value instanceof Value.Array v) {
            w.startArray(v.elementTag(), v.lengths(), v.lowerBounds());
            List<Value> elements = v.elements();
            for (Value element : elements) {
                put(w, element);
            }
            return w.endArray();
        }
        throw new IllegalArgumentException("unknown value " + value);
    }
}
