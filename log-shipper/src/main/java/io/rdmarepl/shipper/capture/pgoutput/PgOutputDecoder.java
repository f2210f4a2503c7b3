package io.rdmarepl.shipper.capture.pgoutput;

import static io.rdmarepl.shipper.capture.pgoutput.PgOutputDescriptor.MESSAGE_TRANSACTIONAL_FLAG;
import static io.rdmarepl.shipper.capture.pgoutput.PgOutputDescriptor.POSTGRES_EPOCH_OFFSET_US;
import static io.rdmarepl.shipper.capture.pgoutput.PgOutputDescriptor.STREAM_ABORT_LENGTH;
import static io.rdmarepl.shipper.capture.pgoutput.PgOutputDescriptor.STREAM_ABORT_PARALLEL_LENGTH;

import io.rdmarepl.format.CatchUpMarkers;
import io.rdmarepl.format.Lsn;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Turns pgoutput's messages, fed one at a time as the walsender sends them, into complete source transactions of
 * log-format records handed to a {@link TransactionSink} in commit order. Message layouts: {@link PgOutputDescriptor}.
 *
 * <ul>
 *   <li>A transaction is framed as the change stream wants it: Begin (carrying the commit LSN), then its Relation,
 *       Insert, Update, Delete and Truncate records, then Commit. A Relation record goes before a relation's first
 *       change whenever the stream has not received its current description (a streamed transaction, which may
 *       commit after others that changed it, always carries its own). A transaction that changed nothing
 *       published is not shipped ({@link TransactionSink#onEmptyTransaction}), unless it wrote a transactional logical
 *       decoding message with the catch-up marker prefix ({@link CatchUpMarkers#PREFIX}): then it is shipped, empty if
 *       need be, and the sink is told it holds a marker. Other messages, and non-transactional ones, are ignored; so
 *       are Origin messages.</li>
 *   <li>Values stay the walsender's text output, unparsed: {@code TEXT_FALLBACK} with the column's type OID (exact by
 *       construction: the applier casts the text to the replica column's type), except int2, int4, int8 and bool
 *       (and domains over them), parsed into their native tags. {@code n} is NULL, {@code u} (an unchanged TOASTed
 *       value) is {@code UNCHANGED_TOAST}. The session must have {@code client_encoding=UTF8}; the text is copied
 *       as it arrives, not re-validated.</li>
 *   <li>Streaming of in-progress transactions (proto 2 and up, {@code streaming 'on'}): the changes of each
 *       top-level transaction are buffered, each tagged with the xid of the (sub)transaction that made it. A Stream
 *       Abort of a subtransaction takes out exactly its changes (and a catch-up marker written after its first one),
 *       one of the top-level transaction discards it all, and a Stream Commit hands the survivors over as one
 *       transaction. Streamed transactions may interleave with each other and with ordinary ones. A rolled-back
 *       transaction or subtransaction never reaches the sink.</li>
 *   <li>Two-phase commit: {@code two_phase} must not be requested. Then a prepared transaction arrives as an ordinary
 *       transaction when COMMIT PREPARED is decoded (and never if it is rolled back); two-phase messages fail.</li>
 *   <li>Failure: a message that cannot be decoded (unknown type byte, truncated, out of order, a data message for a
 *       relation no Relation message described, a column count its relation does not have, a value its type cannot
 *       have, a transaction over the size limit) throws {@link PgOutputException} naming the message's LSN, the
 *       relation and column when known, and what was unexpected. Nothing is skipped; the decoder is then unusable
 *       until {@link #reset()}.</li>
 *   <li>Hot path: in steady state decoding a row allocates nothing. Transaction buffers grow (up to
 *       {@code maxTransactionBytes} each) and are reused, never shrunk; Relation and Type messages allocate.</li>
 * </ul>
 *
 * <p>One decoder per replication session, on the reading thread; not thread-safe. When the session restarts, call
 * {@link #reset()} (or make a new decoder): the walsender sends in-progress transactions from their start again.
 */
public final class PgOutputDecoder {
    /** A default for {@code maxTransactionBytes}: 1 GiB of encoded records per transaction. */
    public static final long DEFAULT_MAX_TRANSACTION_BYTES = 1L << 30;
    /** The largest transaction buffer a ByteBuffer can be. */
    public static final long MAX_TRANSACTION_BYTES_LIMIT = Integer.MAX_VALUE - 8;

    private static final byte[] MARKER_PREFIX = CatchUpMarkers.PREFIX.getBytes(StandardCharsets.UTF_8);
    private static final int IDLE = 0;
    private static final int IN_TRANSACTION = 1;
    private static final int IN_STREAM = 2;

    private final TransactionSink sink;
    private final DecodeContext context = new DecodeContext();
    private final MessageReader reader = new MessageReader(context);
    private final RelationDecoder relationDecoder;
    private final ChangeDecoder changes;
    private final TransactionBuffers buffers;
    private int state = IDLE;
    private TransactionBuffer current;
    private long finalLsn;

    /**
     * @param typeNames           names the types of Relation messages' columns that no Type message named
     * @param sink                receives the transactions, on the decoding thread
     * @param maxTransactionBytes the most encoded bytes one transaction may take (a streamed one is held whole until
     *                            its commit); a larger one fails naming it
     */
    public PgOutputDecoder(TypeNames typeNames, TransactionSink sink, long maxTransactionBytes) {
        if (maxTransactionBytes < 1024 || maxTransactionBytes > MAX_TRANSACTION_BYTES_LIMIT) {
            throw new IllegalArgumentException("maxTransactionBytes " + maxTransactionBytes + " is outside [1024, "
                + MAX_TRANSACTION_BYTES_LIMIT + "]");
        }
        this.sink = sink;
        RelationMap relations = new RelationMap();
        this.relationDecoder = new RelationDecoder(context, reader, relations, typeNames);
        this.changes = new ChangeDecoder(context, reader, relations);
        this.buffers = new TransactionBuffers(maxTransactionBytes);
    }

    /**
     * Decodes one pgoutput message: the payload of one XLogData message.
     *
     * @param payload  holds the message at absolute indexes {@code [offset, offset + length)}, below its limit; any
     *                 byte order; position and limit are not changed. Valid only during the call: nothing refers to it
     *                 afterwards.
     * @param walStart the XLogData's WAL start: the LSN error messages name
     * @param walEnd   the XLogData's WAL end; not needed to decode, accepted so the header can be passed as it is
     * @throws PgOutputException if the message cannot be decoded
     * @throws IllegalArgumentException if the region does not lie inside the payload (a caller bug)
     */
    public void decode(ByteBuffer payload, int offset, int length, long walStart, long walEnd) {
        if (offset < 0 || length < 0 || offset > payload.limit() - length) {
            throw new IllegalArgumentException("message region offset=" + offset + " length=" + length
                + " does not lie inside the payload's limit " + payload.limit());
        }
        context.startMessage(walStart);
        reader.wrap(payload, offset, length);
        byte type = reader.readByte("message type");
        String name = PgOutputDescriptor.messageName(type);
        if (name == null) {
            throw context.fail("unknown message type byte " + TupleCodec.byteText(type));
        }
        context.message(name);
        switch (type) {
            case PgOutputDescriptor.INSERT -> changes.insert(openTransaction(), dataXid());
            case PgOutputDescriptor.UPDATE -> changes.update(openTransaction(), dataXid());
            case PgOutputDescriptor.DELETE -> changes.delete(openTransaction(), dataXid());
            case PgOutputDescriptor.TRUNCATE -> changes.truncate(openTransaction(), dataXid());
            case PgOutputDescriptor.BEGIN -> begin();
            case PgOutputDescriptor.COMMIT -> commit();
            case PgOutputDescriptor.RELATION -> {
                dataXid();
                relationDecoder.relation();
            }
            case PgOutputDescriptor.TYPE -> {
                dataXid();
                relationDecoder.type();
            }
            case PgOutputDescriptor.MESSAGE -> message();
            case PgOutputDescriptor.ORIGIN -> {
                reader.readLong("origin LSN");
                reader.readString("origin name");
            }
            case PgOutputDescriptor.STREAM_START -> streamStart();
            case PgOutputDescriptor.STREAM_STOP -> streamStop();
            case PgOutputDescriptor.STREAM_COMMIT -> streamCommit();
            case PgOutputDescriptor.STREAM_ABORT -> streamAbort();
            default -> throw context.fail("a two-phase message, sent only when two_phase is requested, which this"
                + " decoder never does");
        }
        reader.expectEnd(); // the others check before they change anything; Origin changes nothing
    }

    /** Forgets every transaction in progress (keeps what it knows of relations): call when the session restarts. */
    public void reset() {
        if (current != null && !current.streamed()) {
            buffers.release(current);
        }
        buffers.releaseStreaming();
        current = null;
        state = IDLE;
    }

    /**
     * Between transactions, with no streamed one open: everything received so far is either handed to the sink or
     * belongs to a transaction that will never be shipped, so a later position may be confirmed.
     */
    public boolean idle() {
        return state == IDLE && buffers.streamingCount() == 0;
    }

    /** Streamed transactions whose commit or abort has not arrived yet. */
    public int streamedTransactionsInProgress() {
        return buffers.streamingCount();
    }

    private void begin() {
        expectIdle();
        finalLsn = reader.readLong("final LSN");
        if (finalLsn == Lsn.INVALID) {
            throw context.fail("final LSN 0/0: a Begin must announce its commit LSN");
        }
        reader.readLong("commit time");
        int xid = reader.readInt("xid");
        reader.expectEnd();
        current = buffers.acquire(xid, false);
        state = IN_TRANSACTION;
    }

    private void commit() {
        if (state != IN_TRANSACTION) {
            throw context.fail("Commit without a Begin" + describeState());
        }
        expectNoFlags(reader.readByte("flags"));
        long commitLsn = reader.readLong("commit LSN");
        long endLsn = reader.readLong("end LSN");
        long commitTime = reader.readLong("commit time");
        reader.expectEnd();
        if (commitLsn != finalLsn) {
            throw context.fail("commit LSN " + Lsn.format(commitLsn) + " is not the final LSN " + Lsn.format(finalLsn)
                + " its Begin announced");
        }
        TransactionBuffer txn = current;
        current = null;
        state = IDLE;
        handOver(txn, commitLsn, endLsn, commitTime);
    }

    private void message() {
        int tag = dataXid();
        int flags = reader.readByte("flags") & 0xFF;
        if ((flags & ~MESSAGE_TRANSACTIONAL_FLAG) != 0) {
            throw context.fail("unknown message flags " + TupleCodec.byteText((byte) flags));
        }
        reader.readLong("message LSN");
        reader.readString("prefix");
        reader.skip(reader.readInt("content length"), "content");
        reader.expectEnd();
        if ((flags & MESSAGE_TRANSACTIONAL_FLAG) != 0) {
            TransactionBuffer txn = openTransaction();
            if (reader.stringEquals(MARKER_PREFIX)) {
                txn.addMarker(tag);
            }
        }
    }

    private void streamStart() {
        expectIdle();
        int xid = reader.readInt("xid");
        byte first = reader.readByte("first segment");
        reader.expectEnd();
        if (first != 0 && first != 1) {
            throw context.fail("first-segment flag " + TupleCodec.byteText(first) + " is neither 0 nor 1");
        }
        TransactionBuffer txn = buffers.streamed(xid);
        if (first == 1 && txn != null) {
            throw context.fail("first segment of transaction " + Integer.toUnsignedLong(xid) + " again, which is in progress");
        }
        if (first == 0 && txn == null) {
            throw context.fail("a later segment of transaction " + Integer.toUnsignedLong(xid)
                + ", whose first segment this decoder never received");
        }
        current = first == 1 ? buffers.acquire(xid, true) : txn;
        state = IN_STREAM;
    }

    private void streamStop() {
        reader.expectEnd();
        if (state != IN_STREAM) {
            throw context.fail("Stream Stop without a Stream Start" + describeState());
        }
        current = null;
        state = IDLE;
    }

    private void streamCommit() {
        expectIdle();
        int xid = reader.readInt("xid");
        expectNoFlags(reader.readByte("flags"));
        long commitLsn = reader.readLong("commit LSN");
        long endLsn = reader.readLong("end LSN");
        long commitTime = reader.readLong("commit time");
        reader.expectEnd();
        TransactionBuffer txn = buffers.streamed(xid);
        if (txn == null) {
            throw context.fail("commit of streamed transaction " + Integer.toUnsignedLong(xid)
                + ", whose first segment this decoder never received");
        }
        handOver(txn, commitLsn, endLsn, commitTime);
    }

    private void streamAbort() {
        expectIdle();
        if (reader.length() != STREAM_ABORT_LENGTH && reader.length() != STREAM_ABORT_PARALLEL_LENGTH) {
            throw context.fail("a Stream Abort has " + STREAM_ABORT_LENGTH + " or " + STREAM_ABORT_PARALLEL_LENGTH
                + " bytes, this one " + reader.length());
        }
        int xid = reader.readInt("xid");
        int subxid = reader.readInt("subtransaction xid");
        if (reader.length() == STREAM_ABORT_PARALLEL_LENGTH) {
            reader.readLong("abort LSN");
            reader.readLong("abort time");
        }
        reader.expectEnd();
        TransactionBuffer txn = buffers.streamed(xid);
        if (txn == null) {
            return; // nothing of it was received, so there is nothing to take back
        }
        if (subxid == xid) {
            buffers.release(txn);
        } else if (txn.abortSubtransaction(subxid)) {
            txn.restamp(buffers.nextStamp());
        }
    }

    private void handOver(TransactionBuffer txn, long commitLsn, long endLsn, long postgresCommitTime) {
        long txId = Integer.toUnsignedLong(txn.xid());
        long commitTimeUs = postgresCommitTime + POSTGRES_EPOCH_OFFSET_US;
        try {
            if (txn.changes() == 0 && !txn.holdsMarker()) {
                sink.onEmptyTransaction(txId, commitLsn, endLsn);
                return;
            }
            int length = txn.finish(txId, commitLsn, endLsn, commitTimeUs, context);
            txn.markRelationsSent();
            sink.onTransaction(txn.buffer(), length, txn.recordCount(), txId, commitLsn, endLsn, commitTimeUs,
                txn.holdsMarker());
        } finally {
            buffers.release(txn);
        }
    }

    /** The transaction a data message belongs to; fails outside of one. */
    private TransactionBuffer openTransaction() {
        if (state == IDLE) {
            throw context.fail("a transactional change outside a transaction (no Begin or Stream Start before it)");
        }
        return current;
    }

    /** Reads the xid a data message carries inside a stream block (its tag); 0 outside one, where it has none. */
    private int dataXid() {
        return state == IN_STREAM ? reader.readInt("xid") : 0;
    }

    private void expectIdle() {
        if (state != IDLE) {
            throw context.fail("unexpected" + describeState());
        }
    }

    private void expectNoFlags(byte flags) {
        if (flags != 0) {
            throw context.fail("unknown flags " + TupleCodec.byteText(flags) + " (none are defined)");
        }
    }

    private String describeState() {
        return switch (state) {
            case IN_TRANSACTION -> " inside transaction " + Integer.toUnsignedLong(current.xid());
            case IN_STREAM -> " inside a stream block of transaction " + Integer.toUnsignedLong(current.xid());
            default -> " outside any transaction";
        };
    }
}
