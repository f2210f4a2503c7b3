package io.rdmarepl.applier.testing;

import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.channel.Transports;
import io.rdmarepl.channel.fragment.MessageWriter;
import io.rdmarepl.channel.ring.RingWriter;
import io.rdmarepl.channel.ring.WriterEnd;
import io.rdmarepl.format.ChangeStream;
import io.rdmarepl.format.codec.RecordEncoder;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.format.record.ChangeRecords;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** Plays the shipper in tests: encodes change records and writes them into the applier's ring, as the shipper does. */
public final class RingFeeder implements AutoCloseable {
    private final WriterEnd end;
    private final RingWriter writer;
    private final MessageWriter messages;
    private final RecordEncoder encoder = new RecordEncoder();
    private final ByteBuffer scratch = ByteBuffer.allocate(1 << 20);
    private java.util.function.BooleanSupplier readerAlive = () -> true;

    public RingFeeder(ChannelUri uri) {
        this(uri, null);
    }

    /** A feeder over any transport; {@code security} is the cluster's secret (rdma://, softrdma://), null for shm. */
    public RingFeeder(ChannelUri uri, io.rdmarepl.channel.ChannelSecurity security) {
        this.end = security == null ? Transports.openWriter(uri) : Transports.openWriter(uri, security);
        this.writer = new RingWriter(end);
        this.messages = new MessageWriter(writer);
    }

    /** Stop waiting out back-pressure as soon as {@code alive} says the reader is gone (a killed applier). */
    public RingFeeder readerAlive(java.util.function.BooleanSupplier alive) {
        this.readerAlive = alive;
        return this;
    }

    public RingWriter writer() {
        return writer;
    }

    /** Writes the records (waiting out back-pressure, 30 s at most) and publishes them. */
    public RingFeeder send(List<? extends ChangeRecord> records) {
        for (ChangeRecord record : records) {
            int length = ChangeRecords.encode(encoder, record, scratch, 0, scratch.capacity());
            long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!messages.tryWrite(ChangeStream.RECORD_FRAME_TYPE, scratch, 0, length)) {
                writer.publish();
                if (!readerAlive.getAsBoolean()) {
                    throw new IllegalStateException("the reader is gone");
                }
                if (System.nanoTime() > deadlineNs) {
                    throw new IllegalStateException("ring stayed full for 30 s: the applier is not reading");
                }
                LockSupport.parkNanos(50_000); // a writer's back-off on a full ring, as the shipper's: not a wait for something
            }
        }
        writer.publish();
        return this;
    }

    public RingFeeder send(ChangeRecord... records) {
        return send(List.of(records));
    }

    /** Like {@link #transaction}, the Begin flagged as a chunk of an initial copy (BEGIN_SNAPSHOT_CHUNK_FLAG). */
    public RingFeeder snapshotChunk(long txId, long commitLsn, ChangeRecord... rows) {
        List<ChangeRecord> records = Records.transaction(txId, commitLsn, List.of(rows));
        int length = encoder.encodeBegin(scratch, 0, scratch.capacity(), txId, commitLsn, System.currentTimeMillis() * 1000,
                io.rdmarepl.format.codec.TransactionDescriptor.BEGIN_SNAPSHOT_CHUNK_FLAG);
        while (!messages.tryWrite(ChangeStream.RECORD_FRAME_TYPE, scratch, 0, length)) {
            writer.publish();
            LockSupport.parkNanos(50_000); // a writer's back-off on a full ring: not a wait for something
        }
        return send(records.subList(1, records.size()));
    }

    /** Begin, the rows, Commit: one source transaction committed at {@code commitLsn}. */
    public RingFeeder transaction(long txId, long commitLsn, ChangeRecord... rows) {
        return send(Records.transaction(txId, commitLsn, List.of(rows)));
    }

    @Override
    public void close() {
        end.close();
    }
}
