package io.rdmarepl.applier.apply;

import io.rdmarepl.applier.config.ApplierConfig;
import io.rdmarepl.applier.position.AppliedPosition;
import io.rdmarepl.applier.schema.RelationCache;
import io.rdmarepl.applier.schema.SequenceReadings;
import io.rdmarepl.applier.schema.SequenceTracker;
import io.rdmarepl.channel.fragment.MessageAssembler;
import io.rdmarepl.channel.ring.RingReader;
import io.rdmarepl.format.FormatException;
import io.rdmarepl.format.Lsn;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The apply loop, one thread: poll the ring into whole transactions, apply them in groups, report
 * applied and durable LSNs to the shipper, pause and retry on failures. {@link #doWork} returns how much
 * it did, so the caller idles when it is 0. Other threads reach it only through {@link #submit}.
 *
 * <pre>
 *  RingReader.poll -> MessageAssembler -> TxAssembler -> GroupLog --(ring idle, or count/bytes/time)-->
 *    GroupApplier (one replica tx: rows + applied_position) -> commit -> feedback(applied, durable)
 * </pre>
 *
 * With {@code apply.workers} above 1 a group goes to a worker instead, as a segment ({@link SegmentScheduler}), and its
 * outcome comes back here in source order; a segment that must run alone, and every retry, is applied here as above.
 * With {@code apply.workers} at 1 and {@code apply.copy.workers} above 1, only an initial copy's chunks go to workers.
 */
final class ApplierAgent {
    private static final Logger LOG = LoggerFactory.getLogger(ApplierAgent.class);
    private static final long STATUS_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(20);

    private final ApplierConfig config;
    private final RingReader reader;
    /** A transaction larger than memory goes to a file in the JVM's temporary directory ({@code java.io.tmpdir}). */
    private final GroupLog log = new GroupLog(java.nio.file.Path.of(System.getProperty("java.io.tmpdir")));
    private final TxAssembler assembler;
    private final MessageAssembler frames;
    private final ReplicaSession session;
    private final RelationCache relations;
    private final SequenceTracker sequences;
    private final SequenceReadings readings;
    private final GroupApplier applier;
    /** Null without workers ({@link ApplierConfig#parallelWorkers()} 1): groups are applied on this thread. */
    private final SegmentScheduler segments;
    private final PositionReport positions;
    private final ApplierMetrics metrics;
    private final Queue<Runnable> commands = new ConcurrentLinkedQueue<>();
    private final GroupTiming timing;
    /** What {@link #lingerLeftNs()} answers; apply thread only. */
    private long lingerLeftNs;

    private ApplierState state = ApplierState.STARTING;
    private String stateReason = "starting";
    private long stateSinceMs = System.currentTimeMillis();
    private ApplyFailure failure;
    private String lastError;
    private long retryDelayMs;
    private long retryAtNs;
    private boolean corruptStream;

    private long appliedLsn;
    private long appliedTxId;
    private long lastAppliedCommitTimeUs;
    private long transactionsApplied;
    private long rowsApplied;
    private long retries;
    private long lastStrayRecords;
    private long lastStatusNs;
    private CompletableFuture<Long> drained;
    private volatile long lastMessageNs = System.nanoTime();
    private volatile Thread applyThread;
    private volatile ApplierStatus status;

    /**
     * @param workerSessions a new session for each apply worker ({@link ApplierConfig#parallelWorkers()} above 1)
     */
    ApplierAgent(ApplierConfig config, RingReader reader, ReplicaSession session, Supplier<ReplicaSession> workerSessions,
                 SequenceTracker sequences, SequenceReadings readings, ApplierMetrics metrics, AppliedPosition start) {
        this.config = config;
        this.reader = reader;
        this.session = session;
        this.sequences = sequences;
        this.readings = readings;
        this.metrics = metrics;
        this.relations = new RelationCache(sequences);
        this.applier = new GroupApplier(relations, session, metrics, new ShippedSequences(readings), config.batchMaxRows(),
                config.copyMinRows(), config.pauseOnDivergence(), config.sessionReplicationRole().equals("replica"),
                config.pipeline());
        this.timing = new GroupTiming(config);
        if (config.parallelWorkers() > 1) {
            CommitOrder order = new CommitOrder();
            Path spill = Path.of(System.getProperty("java.io.tmpdir"));
            ParallelApply parallel = new ParallelApply(config.parallelWorkers(), order, new SegmentWriteSet(relations, session),
                    metrics, i -> {
                        ReplicaSession own = workerSessions.get();
                        return new ApplyWorker(i, own, new GroupApplier(relations, own, metrics,
                                new ShippedSequences(readings), config.batchMaxRows(), config.copyMinRows(),
                                config.pauseOnDivergence(), true, config.pipeline()), order, spill, this::wakeUp);
                    });
            this.segments = new SegmentScheduler(parallel, log, metrics, new Host(), config.groupMaxTransactions(),
                    config.groupMaxBytes(), timing.maxNs(), config.applyWorkers() == 1);
        } else {
            this.segments = null;
        }
        // a full group ends the poll: the rest stays in the ring, not in memory (a poll could take in a whole ring, and
        // a log past GroupLog.SPILL_ABOVE_BYTES goes to disk)
        this.assembler = new TxAssembler(log, start.commitLsn(), start.txId(), () -> {
            if (groupFull()) {
                reader.endPoll();
            }
        });
        this.frames = new MessageAssembler(assembler);
        this.positions = new PositionReport(config, reader, session, start.commitLsn());
        this.appliedLsn = start.commitLsn();
        this.appliedTxId = start.txId();
        state(ApplierState.STREAMING, System.nanoTime(), "applied position " + start);
    }

    /** The thread that runs {@link #doWork}: {@link #wakeUp} unparks it. Set once, before that thread starts. */
    void applyThread(Thread thread) {
        this.applyThread = thread;
    }

    /** Runs {@code command} on the apply thread at its next cycle, which starts now ({@link #wakeUp}). */
    void submit(Runnable command) {
        commands.add(command);
        wakeUp();
    }

    /**
     * Ends the apply thread's sleep now, on the ring's doorbell or on a timer (a lingering group, a ring without a
     * doorbell), so that news from this process (a command, a worker's finished segment) does not wait out up to
     * {@code apply.idle.max.park.us}. Any thread.
     */
    void wakeUp() {
        reader.wakeUp();
        Thread thread = applyThread;
        if (thread != null) {
            LockSupport.unpark(thread);
        }
    }

    /**
     * After a {@link #doWork} that did nothing: how long the group read so far still waits for more
     * ({@code apply.group.linger.us}), to sleep on a timer rather than on the ring's doorbell; 0 when not lingering.
     */
    long lingerLeftNs() {
        return lingerLeftNs;
    }

    /** When the ring last delivered a frame (heartbeat or change), System.nanoTime(); any thread. */
    long lastMessageNs() {
        return lastMessageNs;
    }

    ApplierStatus status() {
        return status;
    }

    int doWork() {
        long nowNs = System.nanoTime();
        lingerLeftNs = 0;
        int work = runCommands();
        if (state == ApplierState.PROMOTED || state == ApplierState.STOPPED) {
            publishStatus(nowNs, work > 0);
            return work;
        }
        if (state.paused()) {
            if (nowNs - retryAtNs >= 0) {
                work += retry(nowNs);
            }
        } else {
            work += stream(nowNs);
        }
        work += positions.refresh(nowNs);
        publishStatus(nowNs, work > 0);
        return work;
    }

    private int stream(long nowNs) {
        int polled = 0;
        if (!groupFull()) {
            assembler.now(nowNs);
            try {
                polled = reader.poll(frames, config.pollMaxFrames());
                assembler.endOfPoll();
                if (polled > 0) {
                    lastMessageNs = nowNs;
                }
            } catch (FormatException e) {
                corruptStream = true;
                pause(new ApplyFailure(FailureCategory.PERMANENT, 0, assembler.acceptedLsn(), null, null, null,
                        "corrupt record at ring position " + reader.position() + ": " + e.getMessage()
                                + "; restart the shipper or this applier (the shipper re-sends from the durable position)"), nowNs);
                return 1;
            }
        }
        if (assembler.strayRecords() != lastStrayRecords) {
            LOG.warn("{} row or commit records arrived outside a transaction and were not applied (the stream breaks "
                    + "the ChangeStream contract)", assembler.strayRecords() - lastStrayRecords);
            lastStrayRecords = assembler.strayRecords();
        }
        int work = polled;
        boolean scheduled = segments != null && segments.active();
        if (segments != null && !scheduled) {
            segments.standDownIfCopyDone();
        }
        if (scheduled) {
            work += segments.run(nowNs, polled);
        } else if (log.transactions() > 0 && timing.due(nowNs, log.firstCompleteNs(), polled == 0, groupFull(),
                polled == 0 && reader.writerAwaitsFeedback())) {
            work += applyGroup(nowNs, false, log.transactions());
        } else if (log.transactions() > 0 && polled == 0) {
            lingerLeftNs = timing.lingerLeftNs(nowNs, log.firstCompleteNs());
        }
        if (drained != null && log.transactions() == 0 && reader.position() >= reader.producerPosition()) {
            drained.complete(appliedLsn);
            drained = null;
        }
        return work;
    }

    /** The transactions not yet dispatched fill a group (applied on this thread: the whole log). */
    private boolean groupFull() {
        return segments != null && segments.active() ? segments.groupFull()
                : log.fillsGroup(0, config.groupMaxTransactions(), config.groupMaxBytes());
    }

    /** The apply thread as the {@link SegmentScheduler} calls it back. */
    private final class Host implements SegmentScheduler.Host {
        @Override
        public int applyHere(long nowNs, int count) {
            return applyGroup(nowNs, false, count);
        }

        @Override
        public void committed(GroupApplier.Outcome outcome, long startNs) {
            ApplierAgent.this.committed(outcome, startNs);
        }

        @Override
        public boolean paused() {
            return state.paused();
        }

        @Override
        public int epoch() {
            return reader.epoch();
        }
    }

    /** Applies the first {@code count} transactions of the log on this thread. */
    private int applyGroup(long nowNs, boolean isolate, int count) {
        long startNs = System.nanoTime();
        GroupApplier.Outcome outcome = applier.apply(log, count, isolate, reader.epoch());
        committed(outcome, startNs);
        int left = count - outcome.committedTransactions();
        if (!outcome.ok() && !isolate && outcome.failure().category() != FailureCategory.RETRIABLE && left > 0) {
            // stop exactly at the failing transaction: commit the ones before it one by one
            startNs = System.nanoTime();
            outcome = applier.apply(log, left, true, reader.epoch());
            committed(outcome, startNs);
        }
        if (outcome.ok()) {
            if (state.paused()) {
                resume(nowNs);
            }
        } else {
            pause(outcome.failure(), nowNs);
        }
        return 1;
    }

    private void committed(GroupApplier.Outcome outcome, long startNs) {
        int count = outcome.committedTransactions();
        if (count == 0) {
            return;
        }
        long nowUs = System.currentTimeMillis() * 1000L;
        int transactions = 0;
        for (int k = 0; k < count; k++) {
            if (!log.sequencesOnly(k)) { // a unit of Sequence records is no source transaction: no lag, not counted
                metrics.lagUs(nowUs - log.commitTimeUs(k));
                lastAppliedCommitTimeUs = log.commitTimeUs(k);
                transactions++;
            }
        }
        metrics.group(transactions, outcome.rows(), System.nanoTime() - startNs);
        timing.applied(count);
        appliedLsn = log.commitLsn(count - 1);
        appliedTxId = log.txId(count - 1);
        transactionsApplied += transactions;
        rowsApplied += outcome.rows();
        if (outcome.missingRows() > 0) {
            LOG.warn("{} update/delete row(s) found no row on the replica up to commit LSN {} (counted in "
                    + "rdmarepl_applier_rows_missing_total): the replica had diverged", outcome.missingRows(),
                    Lsn.format(appliedLsn));
        }
        log.consume(count);
        positions.committed(appliedLsn, startNs);
    }

    private int retry(long nowNs) {
        if (segments != null && segments.inFlight() > 0) {
            // paused by the stream (a corrupt record) with segments in flight: take them back before applying anything
            int work = segments.collect(nowNs);
            if (segments.inFlight() > 0 || !state.paused()) {
                return work;
            }
        }
        retries++;
        metrics.retry();
        if (segments != null) {
            segments.applyingEverythingHere();
        }
        relations.invalidateMappings();
        if (corruptStream) {
            corruptStream = false;
            resume(nowNs);
            return 1;
        }
        if (log.transactions() == 0) {
            resume(nowNs);
            return 1;
        }
        return applyGroup(nowNs, state != ApplierState.RETRYING, log.transactions());
    }

    private void pause(ApplyFailure f, long nowNs) {
        ApplierState next = switch (f.category()) {
            case RETRIABLE -> ApplierState.RETRYING;
            case SCHEMA -> ApplierState.PAUSED_SCHEMA;
            case PERMANENT -> ApplierState.PAUSED_ERROR;
        };
        retryDelayMs = retryDelayMs == 0 ? config.retryInitialMs() : Math.min(config.retryMaxMs(), retryDelayMs * 2);
        retryAtNs = nowNs + TimeUnit.MILLISECONDS.toNanos(retryDelayMs);
        String message = "apply paused at " + f.describe();
        boolean repeated = failure != null && failure.describe().equals(f.describe()) && state == next;
        failure = f;
        lastError = message;
        if (repeated) {
            LOG.debug("{}; still failing, next retry in {} ms", message, retryDelayMs);
        } else {
            state(next, nowNs, message + "; retrying with back-off up to " + config.retryMaxMs() + " ms");
        }
    }

    private void resume(long nowNs) {
        retryDelayMs = 0;
        failure = null;
        state(reader.heartbeatHeld() ? ApplierState.DRAINING : ApplierState.STREAMING, nowNs, "resumed at applied position "
                + Lsn.format(appliedLsn));
    }

    /** Every transition goes through here and is logged once. */
    private void state(ApplierState next, long nowNs, String reason) {
        if (next.paused()) {
            LOG.warn("{} -> {}: {}", state.displayName(), next.displayName(), reason);
        } else {
            LOG.info("{} -> {}: {}", state.displayName(), next.displayName(), reason);
        }
        state = next;
        stateReason = reason;
        stateSinceMs = System.currentTimeMillis();
        publishStatus(nowNs, true);
    }

    private int runCommands() {
        int n = 0;
        for (Runnable command; (command = commands.poll()) != null; n++) {
            command.run();
        }
        return n;
    }

    /**
     * Apply everything in the ring; the future completes with the applied LSN once the ring is empty. From here on
     * this standby no longer renews its primary's lease (the feedback's heartbeat is held): the coordinator is
     * failing over, and counts the old primary's lease from the drain's answer, which comes after this.
     */
    void drain(CompletableFuture<Long> future) {
        if (state == ApplierState.PROMOTED) {
            future.complete(appliedLsn);
            return;
        }
        reader.holdHeartbeat(true);
        drained = future;
        if (state == ApplierState.STREAMING) {
            state(ApplierState.DRAINING, System.nanoTime(), "draining the ring before promotion");
        }
    }

    /**
     * The coordinator called the failover off (the primary recovered): follow the primary again, draining to
     * streaming, and renew its lease again. A drain still under way is called off. Promoted or stopped: nothing.
     */
    void follow() {
        if (state == ApplierState.PROMOTED || state == ApplierState.STOPPED) {
            return;
        }
        if (drained != null) {
            drained.completeExceptionally(new IllegalStateException("the drain was called off: following the primary again"));
            drained = null;
        }
        reader.holdHeartbeat(false);
        if (state == ApplierState.DRAINING) {
            state(ApplierState.STREAMING, System.nanoTime(), "following the primary again (the coordinator called the failover "
                    + "off): renewing its lease");
        }
    }

    /** Stops applying, lifts read-only and moves sequences past the primary's. */
    Map<String, Long> promote() throws SQLException {
        if (segments != null) {
            segments.quiesce();
        }
        try {
            var connection = session.connection();
            if (config.replicaReadOnlyForClients()) {
                ReadOnlyGuard.writableForClients(connection);
            }
            Map<String, Long> set = SequencePromoter.promote(connection, session.ownedSequences(), sequences, readings,
                    new SequencePromoter.Rule(config.sequenceHeadroom(), TimeUnit.MILLISECONDS.toMicros(config.sequenceSyncIntervalMs()),
                            System.currentTimeMillis() * 1000L));
            // with the statements that made the replica writable: a restarted applier finds it a primary, and follows
            // its old source no more (PromotedReplicaException)
            session.positions().keepEpochAndCommit(connection, reader.epoch(), reader.epoch());
            state(ApplierState.PROMOTED, System.nanoTime(), "promoted at applied position " + Lsn.format(appliedLsn)
                    + "; sequences set: " + set);
            return set;
        } catch (SQLException e) {
            session.rollback();
            throw e;
        }
    }

    void epoch(int epoch) {
        reader.epoch(epoch);
        LOG.info("ring epoch is now {}: frames of older epochs are refused", epoch);
    }

    void stop(String why) {
        if (segments != null) {
            segments.close();
        }
        log.close();
        state(ApplierState.STOPPED, System.nanoTime(), why + " at applied position " + Lsn.format(appliedLsn));
    }

    private void publishStatus(long nowNs, boolean force) {
        if (!force && nowNs - lastStatusNs < STATUS_INTERVAL_NS) {
            return;
        }
        lastStatusNs = nowNs;
        status = new ApplierStatus(state, stateReason, stateSinceMs, config.sourceName(), appliedLsn, appliedTxId,
                positions.durableLsn(), lastAppliedCommitTimeUs, log.transactions() > 0 ? log.commitTimeUs(0) : 0,
                log.transactions(), reader.uri(), reader.epoch(), reader.position(), reader.producerPosition(),
                reader.refusedEpochFrames(), transactionsApplied, rowsApplied, assembler.skippedTransactions(),
                assembler.discardedPartialTransactions(), assembler.strayRecords(), retries, lastError);
    }
}
