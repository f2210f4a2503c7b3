package io.rdmarepl.shipper.capture.pgoutput;

import static io.rdmarepl.shipper.capture.pgoutput.PgOutputDescriptor.TRUNCATE_CASCADE_FLAG;
import static io.rdmarepl.shipper.capture.pgoutput.PgOutputDescriptor.TRUNCATE_RESTART_IDENTITY_FLAG;
import static io.rdmarepl.shipper.capture.pgoutput.PgOutputDescriptor.TUPLE_NEW;
import static io.rdmarepl.shipper.capture.pgoutput.PgOutputDescriptor.TUPLE_OLD_KEY;
import static io.rdmarepl.shipper.capture.pgoutput.PgOutputDescriptor.TUPLE_OLD_ROW;

import io.rdmarepl.format.OldTupleKind;
import io.rdmarepl.format.codec.RowChangeDescriptor;
import io.rdmarepl.format.codec.RowWriter;
import io.rdmarepl.format.codec.TruncateDescriptor;
import java.util.Arrays;

/**
 * Insert, Update, Delete and Truncate messages (layouts in {@link PgOutputDescriptor}) into log-format records in a
 * transaction's buffer, each after the Relation record of its relation when the buffer needs one. The reader is
 * positioned after the type byte and the optional xid. The whole message is validated before a byte is written.
 */
final class ChangeDecoder {
    private static final int ROW_HEADER_LENGTH = RowChangeDescriptor.FIRST_TUPLE_OFFSET;

    private final DecodeContext context;
    private final MessageReader reader;
    private final RelationMap relations;
    private final TupleCodec tuples;
    private int[] truncateIds = new int[8];
    private RelationEntry[] truncated = new RelationEntry[8];

    ChangeDecoder(DecodeContext context, MessageReader reader, RelationMap relations) {
        this.context = context;
        this.reader = reader;
        this.relations = relations;
        this.tuples = new TupleCodec(context);
    }

    void insert(TransactionBuffer txn, int tag) {
        RelationEntry relation = relation();
        if (relation.ignored()) {
            reader.position(reader.end());
            return;
        }
        expectTupleType(TUPLE_NEW, "'N' (new tuple)");
        int newStart = reader.position();
        long size = ROW_HEADER_LENGTH + tuples.measure(reader, relation, "new tuple");
        reader.expectEnd();
        txn.includeRelation(relation, tag, context);
        txn.ensure(size, context);
        reader.position(newStart);
        RowWriter writer = txn.encoder().startInsert(txn.buffer(), txn.used(), txn.room(), relation.oid());
        tuples.write(reader, relation, writer);
        txn.append(writer.finish(), tag, true);
    }

    void update(TransactionBuffer txn, int tag) {
        RelationEntry relation = relation();
        if (relation.ignored()) {
            reader.position(reader.end());
            return;
        }
        byte type = reader.readByte("tuple type");
        OldTupleKind old = OldTupleKind.NONE;
        int oldStart = -1;
        long size = ROW_HEADER_LENGTH;
        if (type == TUPLE_OLD_KEY || type == TUPLE_OLD_ROW) {
            old = type == TUPLE_OLD_KEY ? OldTupleKind.KEY : OldTupleKind.FULL;
            oldStart = reader.position();
            size += tuples.measure(reader, relation, type == TUPLE_OLD_KEY ? "old key" : "old row");
            type = reader.readByte("tuple type");
        }
        if (type != TUPLE_NEW) {
            throw context.fail("expected " + (oldStart < 0 ? "'K', 'O' or 'N'" : "'N' (new tuple)") + ", got "
                + TupleCodec.byteText(type));
        }
        int newStart = reader.position();
        size += tuples.measure(reader, relation, "new tuple");
        reader.expectEnd();
        txn.includeRelation(relation, tag, context);
        txn.ensure(size, context);
        RowWriter writer = txn.encoder().startUpdate(txn.buffer(), txn.used(), txn.room(), relation.oid(), old);
        if (oldStart >= 0) {
            reader.position(oldStart);
            tuples.write(reader, relation, writer);
            writer.startNewTuple();
        }
        reader.position(newStart);
        tuples.write(reader, relation, writer);
        txn.append(writer.finish(), tag, true);
    }

    void delete(TransactionBuffer txn, int tag) {
        RelationEntry relation = relation();
        if (relation.ignored()) {
            reader.position(reader.end());
            return;
        }
        byte type = reader.readByte("tuple type");
        if (type != TUPLE_OLD_KEY && type != TUPLE_OLD_ROW) {
            throw context.fail("expected 'K' (old key) or 'O' (old row), got " + TupleCodec.byteText(type));
        }
        int oldStart = reader.position();
        long size = ROW_HEADER_LENGTH + tuples.measure(reader, relation, type == TUPLE_OLD_KEY ? "old key" : "old row");
        reader.expectEnd();
        txn.includeRelation(relation, tag, context);
        txn.ensure(size, context);
        reader.position(oldStart);
        RowWriter writer = txn.encoder().startDelete(txn.buffer(), txn.used(), txn.room(), relation.oid(),
            type == TUPLE_OLD_KEY ? OldTupleKind.KEY : OldTupleKind.FULL);
        tuples.write(reader, relation, writer);
        txn.append(writer.finish(), tag, true);
    }

    void truncate(TransactionBuffer txn, int tag) {
        int count = reader.readInt("relation count");
        int flags = reader.readByte("truncate flags") & 0xFF;
        if (count < 0) {
            throw context.fail("negative relation count " + count);
        }
        if ((flags & ~(TRUNCATE_CASCADE_FLAG | TRUNCATE_RESTART_IDENTITY_FLAG)) != 0) {
            throw context.fail("unknown truncate flags " + TupleCodec.byteText((byte) flags));
        }
        reader.need((long) count * Integer.BYTES, "relation OIDs");
        if (count > truncateIds.length) {
            truncateIds = Arrays.copyOf(truncateIds, Math.max(count, 2 * truncateIds.length));
            truncated = Arrays.copyOf(truncated, truncateIds.length);
        }
        int kept = 0;
        for (int i = 0; i < count; i++) {
            RelationEntry relation = relation();
            if (!relation.ignored()) {
                truncated[kept] = relation;
                truncateIds[kept++] = relation.oid();
            }
        }
        reader.expectEnd();
        count = kept;
        if (count == 0) {
            return;
        }
        for (int i = 0; i < count; i++) {
            context.relation(truncated[i]);
            txn.includeRelation(truncated[i], tag, context);
        }
        txn.ensure(TruncateDescriptor.truncateLength(count), context);
        int length = txn.encoder().encodeTruncate(txn.buffer(), txn.used(), txn.room(),
            (flags & TRUNCATE_CASCADE_FLAG) != 0, (flags & TRUNCATE_RESTART_IDENTITY_FLAG) != 0, truncateIds, count);
        Arrays.fill(truncated, 0, count, null);
        txn.append(length, tag, true);
    }

    /** Reads a relation OID and finds its relation; fails if no Relation message described it. */
    private RelationEntry relation() {
        int oid = reader.readInt("relation OID");
        context.relationOid(oid);
        RelationEntry relation = relations.get(oid);
        if (relation == null) {
            throw context.fail("no Relation message described this relation before the change");
        }
        context.relation(relation);
        return relation;
    }

    private void expectTupleType(byte expected, String what) {
        byte type = reader.readByte("tuple type");
        if (type != expected) {
            throw context.fail("expected " + what + ", got " + TupleCodec.byteText(type));
        }
    }
}
