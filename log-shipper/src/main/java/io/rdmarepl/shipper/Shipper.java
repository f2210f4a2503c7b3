package io.rdmarepl.shipper;

import io.micrometer.core.instrument.MeterRegistry;
import io.rdmarepl.control.Guarantee;
import io.rdmarepl.control.LeaseTerms;
import io.rdmarepl.control.PrimaryAnswer;
import io.rdmarepl.format.Lsn;
import io.rdmarepl.shipper.capture.Capture;
import io.rdmarepl.shipper.capture.DebeziumCapture;
import io.rdmarepl.shipper.capture.pgoutput.PgOutputCapture;
import io.rdmarepl.shipper.capture.ChangeEncoding;
import io.rdmarepl.shipper.capture.EngineProperties;
import io.rdmarepl.shipper.capture.PrimaryPreflight;
import io.rdmarepl.shipper.liveness.PrimaryLiveness;
import io.rdmarepl.shipper.capture.PublishedTables;
import io.rdmarepl.shipper.capture.SequenceSync;
import io.rdmarepl.shipper.capture.SlotRetention;
import io.rdmarepl.shipper.capture.SnapshotStart;
import io.rdmarepl.shipper.capture.TransactionAssembler;
import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.shipper.encode.ChangeEventEncoder;
import io.rdmarepl.shipper.encode.DebeziumValueSettings;
import io.rdmarepl.shipper.encode.RelationCatalog;
import io.rdmarepl.shipper.lease.FencedStart;
import io.rdmarepl.shipper.lease.GuardedLease;
import io.rdmarepl.shipper.lease.Lease;
import io.rdmarepl.shipper.ship.SequenceBoard;
import io.rdmarepl.shipper.ship.ShipMetrics;
import io.rdmarepl.shipper.ship.ShipPipeline;
import io.rdmarepl.shipper.sync.SyncGate;
import io.rdmarepl.shipper.sync.SynchronousStandbyNames;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sidecar beside the primary, assembled: preflight checks, the standbys' rings, the Disruptor
 * fan-out, the Debezium capture feeding it and the reading of the primary's sequences beside it
 * ({@link SequenceSync}). {@link #close()} stops capture first, then lets the standby handlers drain what was
 * handed to them.
 */
public final class Shipper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Shipper.class);
    private static final long MAX_TRANSACTION_BYTES = 1L << 30;
    private static final long SYNC_WATCH_MS = 5;

    private final ShipperConfig config;
    private final ShipMetrics metrics;
    private final ShipPipeline pipeline;
    private volatile Capture capture;
    private volatile String fencedReason;
    private final PrimaryLiveness liveness;
    private final Lease lease;
    /** The lease as its guard sees it (another process, which fences the primary); null when fence.lease.ms=0. */
    private final GuardedLease guarded;
    private volatile boolean leaseRanOut;
    private final SequenceSync sequences;
    private SyncGate sync;
    private RelationCatalog catalog;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    private Shipper(ShipperConfig config, ChangeEncoding encoding, Map<String, String> valueSettings, MeterRegistry registry,
                    GuardedLease guarded) {
        this.config = config;
        this.guarded = guarded;
        this.lease = guarded != null ? guarded.lease() : new Lease(0);
        String fencedBefore;
        SynchronousStandbyNames standbyNames = config.sync().enabled() ? new SynchronousStandbyNames(config) : null;
        try {
            boolean slotExists = PrimaryPreflight.check(config);
            fencedBefore = guarded == null ? null : FencedStart.reason(guarded, config);
            if (slotExists && standbyNames != null) {
                // a restart: a commit made while this start waits for a standby a partition hides waits too
                standbyNames.holdCommits();
            }
        } catch (RuntimeException e) {
            abandonLease();
            throw e;
        }
        this.liveness = new PrimaryLiveness(config, config.heartbeatInterval());
        this.metrics = new ShipMetrics(registry, config.standbys());
        SequenceBoard board = new SequenceBoard();
        this.sequences = new SequenceSync(config, board, this::capturing, metrics);
        try {
            this.pipeline = new ShipPipeline(config.standbys(), config.sync(), config.disruptorSize(),
                    config.shipInline() && "pgoutput".equals(config.captureEngine()), config.heartbeatInterval(),
                    config.connectTimeout(), metrics, this::capturing, lease, board, config.ringEpoch());
        } catch (RuntimeException e) {
            sequences.close();
            liveness.close();
            metrics.close();
            abandonLease();
            throw e;
        }
        try {
            String snapshotMode = SnapshotStart.debeziumMode(config, pipeline.acks().acknowledged());
            this.sync = new SyncGate(config.sync(), standbyNames,
                    pipeline.acks(), () -> closed.get() || fencedReason != null);
            if (fencedBefore != null) { // nothing is shipped from a primary its lease guard fenced: no heartbeat either
                fencedReason = fencedBefore;
                LOG.warn("fenced: {}; shipping stopped", fencedBefore);
            }
            if ("pgoutput".equals(config.captureEngine())) {
                this.capture = new PgOutputCapture(config, pipeline, snapshotMode, sequences::beforeMarker, sync::holdCommits);
                if (config.sync().enabled()) {
                    startSyncWatch();
                }
            } else {
                TransactionAssembler assembler = new TransactionAssembler(encoding, pipeline, EngineProperties.TOPIC_PREFIX,
                        MAX_TRANSACTION_BYTES, () -> PublishedTables.of(config), config.snapshotChunkBytes(),
                        "initial".equals(snapshotMode), sync, sequences::beforeMarker);
                this.capture = new DebeziumCapture(EngineProperties.of(config, valueSettings, snapshotMode), assembler,
                        snapshotMode);
            }
            sequences.start();
            sync.enableInBackground(config.connectTimeout());
            metrics.syncGauges(sync);
            if (guarded != null) {
                guarded.awaitGuard();
                guarded.onExpiry(this::leaseRanOut);
                // a lease no earlier shipper left counting counts from here: connecting to the standbys and starting
                // the capture may take longer than it
                guarded.countFromNow();
            }
            if (fencedBefore != null) {
                stopCaptureInBackground();
            }
        } catch (RuntimeException e) {
            sequences.close();
            if (capture != null) {
                capture.close();
            }
            pipeline.close();
            liveness.close();
            metrics.close();
            abandonLease();
            throw e;
        }
    }

    /**
     * Checks the primary, connects to every standby and starts capturing, encoding every value
     * exactly ({@link ChangeEventEncoder} over the primary's catalog).
     *
     * @throws IllegalStateException naming what is wrong (primary, privileges, slot, standby)
     */
    public static Shipper start(ShipperConfig config, MeterRegistry registry) {
        return start(config, registry, lease -> { });
    }

    /**
     * {@link #start(ShipperConfig, MeterRegistry)}, telling {@code leaseOpened} of the lease as soon as it is open, before
     * the start connects to the standbys: a lease an earlier shipper left counting is renewed through it by the
     * coordinator while this start waits ({@link io.rdmarepl.shipper.role.ShipperRole#renewLease}).
     */
    public static Shipper start(ShipperConfig config, MeterRegistry registry, Consumer<Lease> leaseOpened) {
        GuardedLease guarded = openLease(config, leaseOpened);
        Properties credentials = new Properties();
        credentials.setProperty("user", config.databaseUser());
        credentials.setProperty("password", config.databasePassword());
        credentials.setProperty("ApplicationName", "rdmarepl-shipper-catalog");
        RelationCatalog catalog = RelationCatalog.forJdbcUrl(config.jdbcUrl(), credentials);
        try {
            Shipper shipper = new Shipper(config, new ChangeEventEncoder(catalog), DebeziumValueSettings.properties(), registry,
                    guarded);
            shipper.catalog = catalog;
            return shipper;
        } catch (RuntimeException e) {
            catalog.close();
            if (guarded != null) {
                guarded.abandon(); // idempotent: the constructor may have abandoned it already
            }
            throw e;
        }
    }

    /**
     * The first step of every start: a lease an earlier shipper left counting is guarded while this one starts,
     * whatever becomes of it, and {@code leaseOpened} hears of it before anything slower runs (the encoders' classes
     * load, the primary is checked, the standbys connect): a shipper killed during a cut that hides its standby is
     * renewed only by the coordinator, and its restart must reach that point within the lease it took over.
     */
    private static GuardedLease openLease(ShipperConfig config, Consumer<Lease> leaseOpened) {
        LOG.info("starting shipper: {}", config.describe());
        GuardedLease guarded = config.fenceLeaseMs() > 0 ? GuardedLease.open(config) : null;
        leaseOpened.accept(guarded != null ? guarded.lease() : new Lease(0));
        return guarded;
    }

    /**
     * Checks the primary, connects to every standby and starts capturing with the given encoding.
     *
     * @param valueSettings Debezium properties the encoding relies on
     * @throws IllegalStateException naming what is wrong (primary, privileges, slot, standby)
     */
    public static Shipper start(ShipperConfig config, ChangeEncoding encoding, Map<String, String> valueSettings,
                                MeterRegistry registry) {
        return start(config, encoding, valueSettings, registry, lease -> { });
    }

    /** {@link #start(ShipperConfig, ChangeEncoding, Map, MeterRegistry)}, telling {@code leaseOpened} of the lease once open. */
    public static Shipper start(ShipperConfig config, ChangeEncoding encoding, Map<String, String> valueSettings,
                                MeterRegistry registry, Consumer<Lease> leaseOpened) {
        return new Shipper(config, encoding, valueSettings, registry, openLease(config, leaseOpened));
    }

    /**
     * Sync mode on the native engine: the primary's commits wait in its walsender until the slot is confirmed, which
     * happens the moment the standbys acknowledge; capture never waits. This thread only applies the degrade policy
     * and its restoration ({@link SyncGate#watch}), looking every {@value #SYNC_WATCH_MS} ms.
     */
    private void startSyncWatch() {
        Thread watch = new Thread(() -> {
            while (!closed.get() && fencedReason == null) {
                sync.watch(capture.lastShippedLsn());
                java.util.concurrent.locks.LockSupport.parkNanos(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(SYNC_WATCH_MS));
            }
        }, "rdmarepl-sync-watch");
        watch.setDaemon(true);
        watch.start();
    }

    /** Capture runs and the shipper is not fenced: heartbeats tell the standbys the primary is alive. */
    private boolean capturing() {
        Capture engine = capture;
        return engine != null && !engine.isStopped() && fencedReason == null && liveness.alive();
    }

    /**
     * Stops shipping for good (the coordinator fences this primary): heartbeats stop at once, capture is stopped
     * in the background (Debezium may take a moment), so the caller gets its answer without waiting. Idempotent;
     * the process keeps serving /status until it is stopped.
     */
    public synchronized void fence(String reason) {
        if (fencedReason != null) {
            return;
        }
        fencedReason = reason;
        LOG.warn("fenced: {}; shipping stopped", reason);
        stopCaptureInBackground();
    }

    private void stopCaptureInBackground() {
        Capture engine = capture;
        if (engine == null) {
            return;
        }
        Thread stopper = new Thread(engine::close, "rdmarepl-fence");
        stopper.setDaemon(true);
        stopper.start();
    }

    /** Fenced (by the coordinator or by itself): it ships nothing any more. */
    public boolean fenced() {
        return fencedReason != null;
    }

    /** The coordinator is still there ({@code POST /lease}): renews the lease as a standby's feedback does. */
    public void renewLease() {
        lease.heard("coordinator");
    }

    /**
     * The lease ran out: cut off from every standby and the coordinator, this primary may be replaced right now. Stop
     * shipping; the lease guard, which reads the same lease, makes the primary refuse writes (retried until it did).
     * The guard does that also when the coordinator fenced this shipper already: that stopped the shipping, not the
     * primary's clients, and a coordinator that cannot reach the primary counts on it before it promotes a standby.
     */
    private void leaseRanOut() {
        String expiry = lease.expiry();
        if (expiry == null || leaseRanOut) {
            return;
        }
        leaseRanOut = true;
        LOG.warn("lease ran out: {}; shipping stops, and the lease guard fences the primary", expiry);
        fence("self-fenced: " + expiry);
    }

    /** The lease guard's fence of the primary: {@code state}, {@code attempts} and {@code last_error} (tests). */
    Map<String, Object> selfFenceStatus() {
        if (guarded == null) {
            Map<String, Object> none = new LinkedHashMap<>();
            none.put("state", "not needed");
            none.put("attempts", 0);
            none.put("last_error", null);
            return none;
        }
        return guarded.selfFenceStatus();
    }

    /**
     * The terms of this shipper's lease, for the coordinator ({@code POST /lease} answers them): {@code lease_ms}
     * (0 = no lease), {@code lease_check_ms} and {@code self_fence_timeout_ms}. At most lease + check + self-fence
     * after its last renewal a reachable primary refuses writes.
     */
    public static LeaseTerms leaseTerms(ShipperConfig config) {
        return new LeaseTerms(config.fenceLeaseMs(), ShipperConfig.LEASE_CHECK_MS, ShipperConfig.SELF_FENCE_TIMEOUT_MS);
    }

    /**
     * What a commit on the primary is promised now, for the coordinator (answered with every lease renewal):
     * {@code replication_mode} async or sync, {@code sync_state} (sync mode: enabling, sync, degraded, failed),
     * {@code sync_policy} (strict, or degrade after N ms) and
     * {@code acknowledged_lsn}, up to which every commit is held by the standbys.
     */
    public Guarantee guarantee() {
        boolean syncMode = config.sync().enabled();
        return new Guarantee(syncMode ? Guarantee.SYNC : Guarantee.ASYNC, syncMode ? sync.state().text() : null,
                syncMode ? config.sync().policy() : null, Lsn.format(pipeline.acks().acknowledged()));
    }

    /**
     * A running initial copy in brief, for the coordinator (answered with every lease renewal): rows, bytes, rate and
     * ETA in all and of each table being copied; null when no copy runs.
     */
    public Map<String, Object> copyProgress() {
        return capture.copyProgress(false);
    }

    /** Capture or shipping stopped for a reason that a restart would have to fix, or null. */
    public String failure() {
        String shipping = pipeline.failure();
        if (shipping != null) {
            return "shipping to standby " + shipping;
        }
        return sync.failure() != null ? sync.failure() : capture.failure();
    }

    public boolean healthy() {
        return fencedReason == null && failure() == null && !capture.isStopped();
    }

    /**
     * What {@code GET /primary} answers, cheap enough to poll every few milliseconds (no SQL): whether the primary
     * answers its liveness checks and whether its postmaster exited. The coordinator reads it while detecting.
     */
    public PrimaryAnswer primary() {
        return PrimaryAnswer.shipping(liveness.alive(), liveness.postmasterExited(), liveness.postmasterStatus());
    }

    /** {@link #primary()} once the watched postmaster has exited or {@code wait} has passed, whichever is first. */
    public PrimaryAnswer primary(Duration wait) throws InterruptedException {
        liveness.awaitPostmasterExit(wait);
        return primary();
    }

    /** Everything {@code /status} shows. */
    public Map<String, Object> status() {
        Map<String, Object> status = new LinkedHashMap<>();
        String failure = failure();
        status.put("role", "shipper");
        status.put("state", fencedReason != null ? "fenced" : failure != null ? "failed" : capture.isStopped() ? "stopped" : "streaming");
        status.put("fenced_reason", fencedReason);
        status.put("lease_ms", config.fenceLeaseMs());
        status.put("self_fence", selfFenceStatus());
        status.put("lease_guard", guarded == null ? null : guarded.status());
        status.put("source", config.sourceName());
        status.put("slot", config.slotName());
        status.put("capture_engine", capture.engine());
        status.put("ship_path", pipeline.shipsInline() ? "inline" : "handlers");
        status.put("snapshot", capture.snapshotMode());
        status.put("start_step", capture.startStep());
        status.put("initial_copy", capture.copying());
        long copyLsn = capture.copyLsn();
        status.put("copy_lsn", copyLsn == 0 ? null : Lsn.format(copyLsn));
        status.put("copy_progress", capture.copyProgress(true));
        status.put("transactions_shipped", capture.transactionsShipped());
        status.put("last_shipped_lsn", Lsn.format(capture.lastShippedLsn()));
        status.put("acknowledged_lsn", Lsn.format(pipeline.acks().acknowledged()));
        status.put("sync", sync.status());
        status.put("sequences", sequences.status());
        status.put("records_awaiting_acknowledgement", capture.pendingAcknowledgements());
        status.put("slot_retained_wal_bytes", SlotRetention.retainedWalBytes(config));
        status.put("primary_postmaster", liveness.postmasterStatus());
        status.put("standbys", metrics.standbyStatus());
        status.put("last_error", failure);
        return status;
    }

    /**
     * Graceful stop: ships nothing new, waits (up to {@code drainTimeout}) until the standbys acknowledged what
     * was shipped and Debezium confirmed it to the slot, then stops capture and the standby handlers. What was
     * not acknowledged by then is re-sent by the slot after the restart.
     */
    public void close(Duration drainTimeout) {
        sync.beforeStop();
        capture.drain();
        long deadlineNs = System.nanoTime() + drainTimeout.toNanos();
        while (!capture.drained() && !capture.isStopped() && pipeline.failure() == null && System.nanoTime() - deadlineNs < 0) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (capture.drained()) {
            LOG.info("stopping: every shipped transaction acknowledged and confirmed to the slot (up to {})",
                    Lsn.format(pipeline.acks().acknowledged()));
        } else {
            LOG.warn("stopping with {} record(s) not yet acknowledged by the standbys: the slot re-sends them after the restart",
                    capture.pendingAcknowledgements());
        }
        close();
    }

    /**
     * Stops at once: capture, then the standby handlers (which write what was handed to them). A clean stop: the lease
     * is released, so its guard goes without fencing the primary. Idempotent.
     */
    @Override
    public void close() {
        stop(true);
    }

    /**
     * Stops at once, as {@link #close()}, but leaves the lease counting from the last contact: the process exits for
     * a reason a restart must fix (a lost standby), and until a shipper hears from a standby or the coordinator again
     * the lease guard fences the primary once the lease ran out. Idempotent.
     */
    public void abandon() {
        stop(false);
    }

    private void stop(boolean releaseLease) {
        if (closed.getAndSet(true)) {
            return;
        }
        liveness.close();
        sequences.close();
        capture.close();
        pipeline.close();
        if (catalog != null) {
            catalog.close();
        }
        metrics.close(); // a shipper activated later in this process registers its own
        if (releaseLease && guarded != null) {
            guarded.release();
        } else {
            abandonLease();
        }
    }

    private void abandonLease() {
        if (guarded != null) {
            guarded.abandon();
        }
    }
}
