package io.rdmarepl.shipper.ship;

import com.lmax.disruptor.EventHandler;
import io.rdmarepl.channel.fragment.MessageWriter;
import io.rdmarepl.channel.idle.BackoffIdleStrategy;
import io.rdmarepl.channel.ring.RingWriter;
import io.rdmarepl.channel.ring.WriterEnd;
import io.rdmarepl.format.ChangeStream;
import io.rdmarepl.format.codec.RecordEncoder;
import io.rdmarepl.shipper.config.StandbyConfig;
import io.rdmarepl.shipper.lease.Lease;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Feeds one standby: writes each record of the stream into the standby's ring (waiting while the
 * ring is full, which stops the Disruptor and, behind it, the capture), publishes at the end of each
 * batch, sends heartbeats between transactions while idle, and reports the standby's durable LSN.
 * Sequence states that changed on the {@link SequenceBoard} go out between transactions too: before the
 * next Begin, or while idle and capturing, as heartbeats do.
 *
 * <p>Threads. Records come from the Disruptor's handler thread ({@link #onEvent}), and, when the pipeline ships
 * this standby inline ({@link #shipsInline}), whole transactions straight from the capture thread
 * ({@link #shipTransaction}), while the handler thread still wakes for heartbeats and feedback ({@link #onTimeout}).
 * Everything that touches the ring runs under this object's monitor, uncontended when only one thread ships.
 * Inline, the handler never sleeps on the ring's doorbell: that sleep writes to the ring's transport, which the
 * capture thread may be writing then.
 */
final class StandbyShipper implements EventHandler<ShipEvent> {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(StandbyShipper.class);
    /** Longest sleep on the doorbell while an acknowledgement is awaited: covers a ring lost on the way. */
    private static final long MAX_FEEDBACK_SLEEP_NS = 1_000_000;
    /** Inline, a large transaction is published to the standby every this many records, not only at its end. */
    static final int INLINE_PUBLISH_EVERY_RECORDS = 256;

    private final StandbyConfig standby;
    private final int index;
    private final WriterEnd end;
    private final MessageWriter writer;
    private final RingWriter ring;
    private final AckTracker acks;
    private final ShipMetrics metrics;
    private final long heartbeatIntervalNs;
    private final java.util.function.BooleanSupplier capturing;
    private final Lease lease;
    private final SequenceBoard sequences;
    private long sequencesVersion;
    private long lastFeedbackHeartbeatUs;
    /** Built once: the lease is renewed on the shipping thread, every few milliseconds. */
    private final String contactLabel;
    private final RecordEncoder encoder = new RecordEncoder();
    private final ByteBuffer heartbeat = ByteBuffer.allocateDirect(64).order(ByteOrder.LITTLE_ENDIAN);
    /** Room for any Sequence record: two names of at most 63 bytes each in PostgreSQL, 4 bytes per character at worst. */
    private final ByteBuffer sequenceRecord = ByteBuffer.allocateDirect(1024).order(ByteOrder.LITTLE_ENDIAN);
    /**
     * Waits for room in a full ring. No spinning: the ring is full, so the standby has a ring's worth to apply before a
     * late wake-up could starve it, while every spin or short park takes CPU from the applier that is to make the room.
     */
    private final BackoffIdleStrategy idle = new BackoffIdleStrategy(0, 0, 20_000, 500_000);
    private boolean inTransaction;
    private long lastCommitLsn;
    private long lastWriteNs = System.nanoTime();
    /** When an acknowledgement was last seen awaited ({@link #announceWhetherAwaited}); a heartbeat interval ago at first. */
    private long lastAwaitedNs;
    private volatile String failure;
    private volatile boolean asleepOnDoorbell;
    private volatile boolean inline;
    private java.util.function.LongSupplier published = () -> Long.MAX_VALUE;

    StandbyShipper(StandbyConfig standby, int index, WriterEnd end, AckTracker acks, ShipMetrics metrics, long heartbeatIntervalNs,
                   java.util.function.BooleanSupplier capturing, Lease lease, SequenceBoard sequences, int shipEpoch) {
        this.capturing = capturing;
        this.lease = lease;
        this.sequences = sequences;
        this.contactLabel = "standby " + standby.name();
        this.standby = standby;
        this.index = index;
        this.end = end;
        this.ring = new RingWriter(end);
        // a writer takes the ring's epoch when it connects, so the epoch alone would let any shipper in; one of an
        // older epoch than the ring's belongs to a primary that was failed over since, and must not ship its slot
        int ringEpoch = Math.max(ring.epoch(), ring.feedback().epoch());
        if (shipEpoch > 0 && ringEpoch > shipEpoch) {
            throw new StaleEpochException(standby.name(), shipEpoch, ringEpoch);
        }
        this.writer = new MessageWriter(ring);
        this.acks = acks;
        this.metrics = metrics;
        this.heartbeatIntervalNs = heartbeatIntervalNs;
        this.lastAwaitedNs = System.nanoTime() - heartbeatIntervalNs;
        acks.durable(index, ring.feedback().durableLsn()); // known before capture starts: SnapshotStart needs it
        // only a heartbeat that moves from here on is word from the standby: the one found in a ring whose reader died
        // (a stale shared-memory ring) would renew the lease without anyone there
        this.lastFeedbackHeartbeatUs = ring.feedback().heartbeatTimeUs();
    }

    @Override
    public synchronized void onEvent(ShipEvent event, long sequence, boolean endOfBatch) {
        ship(event.role(), event.bytes(), event.offset(), event.length(), event.commitLsn(), event.commitTimeUs(), endOfBatch);
    }

    /** From now on records come from the capture thread, not from the Disruptor; before the capture starts. */
    void shipsInline() {
        inline = true;
    }

    /**
     * Writes a whole transaction ({@code recordCount} records at the start of {@code records}) on the calling
     * thread and publishes it to the standby; a large one also every {@value #INLINE_PUBLISH_EVERY_RECORDS} records.
     *
     * @throws IllegalStateException naming the standby when it cannot be shipped to (it failed, now or before)
     */
    synchronized void shipTransaction(ByteBuffer records, int recordCount, ShipPipeline.RecordLength recordLength,
                                      long commitLsn, long commitTimeUs) {
        try {
            int at = 0;
            for (int i = 0; i < recordCount; i++) {
                int length = recordLength.at(records, at);
                boolean publish = i == recordCount - 1 || (i + 1) % INLINE_PUBLISH_EVERY_RECORDS == 0;
                ship(ShipPipeline.role(i, recordCount), records, at, length, commitLsn, commitTimeUs, publish);
                at += length;
            }
        } catch (RuntimeException e) {
            throw failedInline(e);
        }
    }

    /** As the Disruptor's failure handler does for a handler: this standby stops for good, the capture with it. */
    private IllegalStateException failedInline(RuntimeException e) {
        String reason = e.getMessage() == null ? e.toString() : e.getMessage();
        if (failure == null) {
            failed(reason);
            LOG.error("shipping stopped: {}", reason);
        }
        return new IllegalStateException("shipping to standby " + standby.name() + ": " + failure, e);
    }

    private void ship(int role, ByteBuffer bytes, int offset, int length, long commitLsn, long commitTimeUs, boolean endOfBatch) {
        stopIfFailed();
        if (role == ShipEvent.BEGIN) {
            shipSequences();
        }
        write(bytes, offset, length);
        switch (role) {
            case ShipEvent.BEGIN -> inTransaction = true;
            case ShipEvent.COMMIT -> {
                inTransaction = false;
                lastCommitLsn = commitLsn;
                metrics.shipped(index, commitTimeUs);
            }
            default -> {
            }
        }
        if (endOfBatch) {
            ring.publish();
            reportAcks();
            if (ring.announcesFeedbackAwaited()) {
                // a stream that stopped awaiting (degraded to async) under load may time out no more
                announceWhetherAwaited(acks.acknowledgementAwaited());
            }
        }
    }

    @Override
    public void onTimeout(long sequence) {
        boolean awaited = acks.acknowledgementAwaited(); // before the feedback read next ends the wait, maybe
        idleDuties();
        if (sleepsOnDoorbell()) {
            sleepOnDoorbellWhileAwaited(sequence);
        } else {
            announceWhetherAwaited(awaited);
        }
    }

    /**
     * Without a doorbell (verbs) this handler polls for the feedback while an acknowledgement is awaited, and the
     * ring's sleep word tells the standby so, as a sleep on the doorbell does over shm: a busy stream's applier would
     * otherwise linger for more transactions, which the primary holds back until it acknowledges. The word turns back
     * once nothing was awaited for a heartbeat interval (looked at on each timeout, and at each batch's end while it
     * is odd), not at each acknowledgement: a busy synchronous stream costs two writes of the word, not two per commit.
     */
    private synchronized void announceWhetherAwaited(boolean awaited) {
        long nowNs = System.nanoTime();
        if (awaited) {
            lastAwaitedNs = nowNs;
        }
        if (!inline && failure == null) {
            ring.announceFeedbackAwaited(awaited || nowNs - lastAwaitedNs < heartbeatIntervalNs);
        }
    }

    /** Heartbeat and sequences when due, between transactions; the standby's feedback. */
    private synchronized void idleDuties() {
        stopIfFailed();
        if (!inTransaction && capturing.getAsBoolean()) {
            boolean wrote = shipSequences();
            if (System.nanoTime() - lastWriteNs >= heartbeatIntervalNs) {
                int length = encoder.encodeHeartbeat(heartbeat, 0, heartbeat.capacity(), System.currentTimeMillis() * 1000L,
                        lastCommitLsn);
                write(heartbeat, 0, length);
                wrote = true;
            }
            if (wrote) {
                ring.publish();
            }
        }
        reportAcks();
    }

    /**
     * While the capture thread waits for an acknowledgement, sleeps until this standby's reader writes feedback
     * (its doorbell), a record is published ({@link #wakeIfAsleepOnDoorbell}) or a heartbeat is due. The flag is
     * set before the cursor is read, and the publisher fences between storing the cursor and reading the flag.
     */
    private void sleepOnDoorbellWhileAwaited(long lastProcessed) {
        if (inline || !acks.acknowledgementAwaited() || failure != null) {
            return;
        }
        asleepOnDoorbell = true;
        java.lang.invoke.VarHandle.fullFence(); // a volatile store alone is no StoreLoad barrier on every CPU
        try {
            if (published.getAsLong() <= lastProcessed) {
                ring.sleepUntilFeedback(Math.min(heartbeatIntervalNs, MAX_FEEDBACK_SLEEP_NS));
            }
        } finally {
            asleepOnDoorbell = false;
        }
        synchronized (this) {
            reportAcks();
        }
    }

    boolean sleepsOnDoorbell() {
        return ring.hasDoorbell();
    }

    /** A record was published: a handler asleep until feedback must ship it now. Any thread. */
    void wakeIfAsleepOnDoorbell() {
        if (asleepOnDoorbell) {
            ring.wakeUp();
        }
    }

    /** The Disruptor's cursor: the last record published, to tell whether one came since this handler's last. */
    void published(java.util.function.LongSupplier cursor) {
        this.published = cursor;
    }

    /** Writes the sequence states that changed since this standby's last board version; between transactions only. */
    private boolean shipSequences() {
        SequenceBoard.Snapshot board = sequences.snapshot();
        if (board.version() == sequencesVersion) {
            return false;
        }
        for (SequenceBoard.Entry entry : board.entries()) {
            if (entry.version() > sequencesVersion) {
                SequenceBoard.Reading r = entry.reading();
                int length = encoder.encodeSequence(sequenceRecord, 0, sequenceRecord.capacity(), r.schema(), r.name(),
                        r.lastValue(), r.isCalled(), r.readTimeUs());
                write(sequenceRecord, 0, length);
            }
        }
        sequencesVersion = board.version();
        return true;
    }

    /**
     * Called by the pipeline's watchdog thread, so transport checks (a file stat for shm) stay off
     * the shipping thread: a standby that restarted has a new ring, and this handler must stop rather
     * than write into one nobody reads.
     */
    void watch() {
        if (failure == null) {
            try {
                end.checkHealth();
            } catch (RuntimeException e) {
                failed(e.getMessage() == null ? e.toString() : e.getMessage());
            }
        }
    }

    private void stopIfFailed() {
        String reason = failure;
        if (reason != null) {
            throw new IllegalStateException(reason);
        }
    }

    private void write(ByteBuffer bytes, int offset, int length) {
        idle.reset();
        long waitStartNs = 0;
        while (!writer.tryWrite(ChangeStream.RECORD_FRAME_TYPE, bytes, offset, length)) {
            if (waitStartNs == 0) {
                waitStartNs = System.nanoTime();
                ring.publish();
            }
            reportAcks();
            stopIfFailed();
            idle.idle(0);
        }
        if (waitStartNs != 0) {
            metrics.backPressured(index, System.nanoTime() - waitStartNs);
        }
        lastWriteNs = System.nanoTime();
    }

    private void reportAcks() {
        if (ring.feedback().refresh()) {
            if (ring.feedback().heartbeatTimeUs() != lastFeedbackHeartbeatUs) {
                lastFeedbackHeartbeatUs = ring.feedback().heartbeatTimeUs();
                lease.heard(contactLabel);
            }
            acks.report(index, ring.feedback().appliedLsn(), ring.feedback().durableLsn());
            metrics.feedback(index, ring.feedback().appliedLsn(), ring.feedback().durableLsn(), ring.position(),
                    ring.feedback().consumerPosition(), ring.capacity());
        }
    }

    /** The largest message this standby's ring takes: half of it. */
    int maxMessageBytes() {
        return ring.capacity() / 2;
    }

    StandbyConfig standby() {
        return standby;
    }

    String failure() {
        return failure;
    }

    void failed(String reason) {
        failure = reason;
    }

    void close() {
        end.close();
    }
}
