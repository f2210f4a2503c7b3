package io.rdmarepl.shipper.ship;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import io.rdmarepl.channel.ChannelSecurity;
import io.rdmarepl.channel.Transports;
import io.rdmarepl.channel.ring.WriterEnd;
import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.shipper.config.StandbyConfig;
import io.rdmarepl.shipper.config.SyncSettings;
import io.rdmarepl.shipper.lease.Lease;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fan-out: one Disruptor, a single producer (the capture thread) and one handler per standby,
 * each on its own thread with its own ring. A slow standby holds the others back only once the
 * Disruptor is full: by design, since offsets wait for the required standbys anyway.
 *
 * <p>With one standby in async mode ({@code ship.inline}, the default) nothing needs fanning out: the capture
 * thread writes a captured transaction into that standby's ring itself ({@link #publishTransaction}), and the
 * handler thread sends heartbeats, reads feedback and writes what is still published one record at a time (an
 * initial copy's chunks, whose buffers it borrows; Debezium's records), which reaches the ring first.
 * Every transaction then wakes one thread fewer on its way, which on a busy host is a wait for a CPU fewer. The
 * ring, not the Disruptor, is then the buffer between capture and standby. In sync mode the handlers keep the
 * records: there they sleep on their ring's doorbell until the standby's acknowledgement, which an inline writer
 * would have to share with them.
 */
public final class ShipPipeline implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ShipPipeline.class);

    private final Disruptor<ShipEvent> disruptor;
    private final RingBuffer<ShipEvent> ringBuffer;
    private final List<StandbyShipper> shippers = new ArrayList<>();
    private final AckTracker acks;
    /** The standby the capture thread ships to itself, or null when the handlers do. */
    private final StandbyShipper inline;
    private final ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "rdmarepl-ship-watchdog");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * Connects to every standby's ring (retrying until {@code connectTimeout}), then starts the handlers.
     *
     * @throws IllegalStateException naming the standby and the reason when a ring cannot be reached
     */
    /**
     * @param sync           in sync mode, how many standbys must hold a transaction and whether applied
     * @param lease          renewed by the standbys' feedback
     * @param capturing whether the primary is being captured: heartbeats go out only then, so a standby (and the
     *                  coordinator reading it) sees them stop when the primary or its capture is gone
     * @param sequences the primary's sequence states, shipped by every standby handler between transactions
     * @param shipEpoch the epoch this shipper ships at: a standby whose ring is at a newer one refuses it
     *                  ({@link StaleEpochException}); 0 for any
     * @param shipInline whether a single standby in async mode is written by the capture thread itself, for the
     *                   whole transactions it publishes ({@link #publishTransaction}); records published one by
     *                   one (an initial copy's, Debezium's) always go through the handler
     */
    public ShipPipeline(List<StandbyConfig> standbys, SyncSettings sync, int bufferEvents, boolean shipInline, Duration heartbeatInterval,
                        Duration connectTimeout, ShipMetrics metrics, java.util.function.BooleanSupplier capturing, Lease lease,
                        SequenceBoard sequences, int shipEpoch) {
        List<Boolean> required = new ArrayList<>();
        standbys.forEach(s -> required.add(s.required()));
        this.acks = sync.enabled() ? new AckTracker(required, sync.standbys(), sync.applied()) : new AckTracker(required);
        AtomicInteger threads = new AtomicInteger();
        FeedbackWaitStrategy wait = new FeedbackWaitStrategy(heartbeatInterval.toNanos(), acks::acknowledgementAwaited);
        acks.onAwaiting(wait::signalAllWhenBlocking);
        this.disruptor = new Disruptor<>(ShipEvent::new, bufferEvents,
                r -> {
                    Thread thread = new Thread(r, "rdmarepl-ship-" + standbys.get(threads.getAndIncrement() % standbys.size()).name());
                    thread.setDaemon(true);
                    return thread;
                },
                ProducerType.SINGLE, wait);
        try {
            for (int i = 0; i < standbys.size(); i++) {
                StandbyConfig standby = standbys.get(i);
                WriterEnd end = connect(standby, connectTimeout);
                try {
                    shippers.add(new StandbyShipper(standby, i, end, acks, metrics, heartbeatInterval.toNanos(),
                            capturing, lease, sequences, shipEpoch));
                } catch (RuntimeException e) {
                    end.close(); // its doorbell socket and selector
                    throw e;
                }
            }
        } catch (RuntimeException e) {
            shippers.forEach(StandbyShipper::close);
            throw e;
        }
        disruptor.setDefaultExceptionHandler(new StandbyFailureHandler(shippers));
        this.inline = shipInline && shippers.size() == 1 && !sync.enabled() ? shippers.get(0) : null;
        if (inline != null) {
            inline.shipsInline();
        }
        // only in sync mode, where the primary's committing sessions wait for the acknowledgement: in async mode
        // records keep coming while a handler would sleep, and waking it through its selector measured worse at p90
        // (1.27 against 0.61 ms of lag) than polling the feedback. Sync mode with many concurrent committers (which
        // keep the walsender sending meanwhile) is measured with one probe client only so far
        if (sync.enabled() && shippers.stream().allMatch(StandbyShipper::sleepsOnDoorbell)) {
            wait.handlersSleepOnDoorbells(() -> shippers.forEach(StandbyShipper::wakeIfAsleepOnDoorbell));
        }
        RingBuffer<ShipEvent> events = disruptor.getRingBuffer();
        shippers.forEach(s -> s.published(events::getCursor)); // before the handler threads start
        disruptor.handleEventsWith(shippers.toArray(new StandbyShipper[0]));
        this.ringBuffer = disruptor.start();
        watchdog.scheduleWithFixedDelay(() -> shippers.forEach(StandbyShipper::watch), ShipperConfig.LEASE_CHECK_MS,
                ShipperConfig.LEASE_CHECK_MS, TimeUnit.MILLISECONDS);
    }

    /**
     * Hands one record to every standby; waits while the Disruptor is full (back-pressure).
     *
     * @throws IllegalStateException when a standby handler has failed (its stream is broken)
     */
    public void publish(int role, ByteBuffer source, int offset, int length, long commitLsn, long commitTimeUs) {
        long sequence = claim(1);
        try {
            ringBuffer.get(sequence).set(role, source, offset, length, commitLsn, commitTimeUs);
        } finally {
            ringBuffer.publish(sequence);
        }
    }

    /**
     * Like {@link #publish}, but the slot refers to {@code source}'s bytes instead of copying them ({@link
     * ShipEvent#borrow}): the caller keeps them unchanged until {@link #consumed} says every handler is past the
     * returned sequence.
     */
    public long publishBorrowed(int role, ByteBuffer source, int offset, int length, long commitLsn, long commitTimeUs) {
        long sequence = claim(1);
        try {
            ringBuffer.get(sequence).borrow(role, source, offset, length, commitLsn, commitTimeUs);
        } finally {
            ringBuffer.publish(sequence);
        }
        return sequence;
    }

    /** The largest record every standby's ring takes (half the smallest ring). */
    public int maxRecordBytes() {
        int most = Integer.MAX_VALUE;
        for (StandbyShipper shipper : shippers) {
            most = Math.min(most, shipper.maxMessageBytes());
        }
        return most;
    }

    /** The sequence of the last slot published. */
    public long lastPublished() {
        return ringBuffer.getCursor();
    }

    /** Whether every standby handler is past {@code sequence} (bytes it borrowed may be reused). */
    public boolean consumed(long sequence) {
        return ringBuffer.getMinimumGatingSequence() >= sequence;
    }

    /**
     * Hands a whole transaction ({@code recordCount} length-prefixed records at the start of {@code records}, see
     * {@link #recordLength}) to every standby and publishes it at once: the handlers are woken once per
     * transaction, not once per record. A transaction larger than a quarter of the Disruptor goes record by record.
     *
     * @throws IllegalStateException when a standby handler has failed (its stream is broken)
     */
    public void publishTransaction(ByteBuffer records, int recordCount, RecordLength recordLength, long commitLsn,
                                   long commitTimeUs) {
        if (inline != null) {
            awaitHandedOver();
            inline.shipTransaction(records, recordCount, recordLength, commitLsn, commitTimeUs);
            return;
        }
        if (recordCount > ringBuffer.getBufferSize() / 4) {
            int at = 0;
            for (int i = 0; i < recordCount; i++) {
                int length = recordLength.at(records, at);
                publish(role(i, recordCount), records, at, length, commitLsn, commitTimeUs);
                at += length;
            }
            return;
        }
        long last = claim(recordCount);
        long first = last - recordCount + 1;
        try {
            int at = 0;
            for (int i = 0; i < recordCount; i++) {
                int length = recordLength.at(records, at);
                ringBuffer.get(first + i).set(role(i, recordCount), records, at, length, commitLsn, commitTimeUs);
                at += length;
            }
        } catch (RuntimeException | Error e) {
            // the claimed slots must be published, and some still hold records of an earlier lap: fail every handler
            // first, so that none writes them (each checks before it writes)
            String reason = "a transaction could not be handed to the standby handlers: " + e;
            shippers.forEach(s -> s.failed(reason));
            throw e;
        } finally {
            ringBuffer.publish(first, last);
        }
    }

    /**
     * Inline, records handed to the handler before (an initial copy's) must reach the ring first: waits until the
     * handler is past every slot published. One volatile read once streaming runs.
     */
    private void awaitHandedOver() {
        long parkNs = MIN_FULL_PARK_NS;
        while (ringBuffer.getMinimumGatingSequence() < ringBuffer.getCursor()) {
            String failure = failure();
            if (failure != null) {
                throw new IllegalStateException("shipping to standby " + failure);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(parkNs);
            parkNs = Math.min(MAX_FULL_PARK_NS, parkNs << 1);
        }
    }

    /**
     * Claims the next {@code count} slots, waiting while the Disruptor is full (back-pressure); returns the last.
     *
     * @throws IllegalStateException when a standby handler has failed (it will never make room)
     */
    private long claim(int count) {
        long parkNs = MIN_FULL_PARK_NS;
        while (true) {
            try {
                return ringBuffer.tryNext(count);
            } catch (com.lmax.disruptor.InsufficientCapacityException full) {
                String failure = failure();
                if (failure != null) {
                    throw new IllegalStateException("shipping to standby " + failure);
                }
                java.util.concurrent.locks.LockSupport.parkNanos(parkNs);
                parkNs = Math.min(MAX_FULL_PARK_NS, parkNs << 1);
            }
        }
    }

    /**
     * A full Disruptor is waited on with parks that double from the first to the last: the handlers behind it wait
     * for a full standby ring, which frees room only as fast as the replica applies, and a fixed short park woke the
     * capture thread some 50,000 times a second for nothing, on the cores the applier needs (catch-up).
     */
    private static final long MIN_FULL_PARK_NS = 20_000;
    private static final long MAX_FULL_PARK_NS = 500_000;

    /** Where a record of a transaction's buffer ends. */
    @FunctionalInterface
    public interface RecordLength {
        int at(ByteBuffer records, int offset);
    }

    /** The role of record {@code index} of a transaction of {@code count} records. */
    static int role(int index, int count) {
        return index == 0 ? ShipEvent.BEGIN : index == count - 1 ? ShipEvent.COMMIT : ShipEvent.BODY;
    }

    /** Whether the capture thread writes the one standby's ring itself ({@code ship.inline}). */
    public boolean shipsInline() {
        return inline != null;
    }

    public AckTracker acks() {
        return acks;
    }

    /** The first standby failure, or null. */
    public String failure() {
        for (StandbyShipper shipper : shippers) {
            if (shipper.failure() != null) {
                return shipper.standby().name() + ": " + shipper.failure();
            }
        }
        return null;
    }

    @Override
    public void close() {
        watchdog.shutdownNow();
        try {
            disruptor.shutdown(5, TimeUnit.SECONDS);
        } catch (com.lmax.disruptor.TimeoutException e) {
            LOG.warn("standby handlers did not drain within 5 s; halting them");
            disruptor.halt();
        }
        shippers.forEach(StandbyShipper::close);
    }

    private static WriterEnd connect(StandbyConfig standby, Duration timeout) {
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        long backoffMs = 50;
        while (true) {
            try {
                return Transports.openWriter(standby.uri(), ChannelSecurity.fromEnvironment());
            } catch (RuntimeException e) {
                if (System.nanoTime() - deadlineNs >= 0 || e instanceof IllegalArgumentException) {
                    throw new IllegalStateException("standby " + standby.name() + " (" + standby.uri() + ") unreachable after "
                            + timeout.toMillis() + " ms: " + e.getMessage(), e);
                }
                LOG.info("waiting for standby {}: {}", standby.name(), e.getMessage());
                try {
                    Thread.sleep(backoffMs);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while connecting to standby " + standby.name(), interrupted);
                }
                backoffMs = Math.min(backoffMs * 2, 1000);
            }
        }
    }
}
