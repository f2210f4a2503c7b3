package io.rdmarepl.applier.apply;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.rdmarepl.applier.config.ApplierConfig;
import io.rdmarepl.applier.position.AppliedPosition;
import io.rdmarepl.applier.position.AppliedPositionStore;
import io.rdmarepl.applier.schema.SequenceReadings;
import io.rdmarepl.applier.schema.SequenceTracker;
import io.rdmarepl.channel.RingSettings;
import io.rdmarepl.channel.ChannelSecurity;
import io.rdmarepl.channel.Transports;
import io.rdmarepl.channel.idle.BackoffIdleStrategy;
import io.rdmarepl.channel.idle.IdleStrategy;
import io.rdmarepl.channel.ring.ReaderEnd;
import io.rdmarepl.channel.ring.RingReader;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replica applier: creates the ring the shipper writes into, and replays it into the replica exactly
 * once on its own thread until {@link #close()}.
 *
 * <pre>{@code
 * ApplierConfig config = ApplierConfig.load(Path.of("applier.properties"));
 * try (Applier applier = Applier.start(config, meterRegistry)) {
 *     // the shipper attaches to config.ringUri(); applier.status() tells how far it got
 * }
 * }</pre>
 *
 * Control actions ({@link #drain}, {@link #promote}, {@link #epoch}) run on the apply thread; they may be
 * called from any thread.
 */
public final class Applier implements ApplierControl {
    private static final Logger LOG = LoggerFactory.getLogger(Applier.class);

    private final ApplierConfig config;
    private final HikariDataSource dataSource;
    private final ReaderEnd ring;
    private final ReplicaSession session;
    private final ApplierAgent agent;
    private final SequenceTracker sequences;
    private final SequenceReadings readings;
    private final ApplierMetrics metrics;
    private final Thread thread;
    private final IdleStrategy idle;
    /** {@code apply.idle.max.park.us}: the longest sleep of the apply thread, doorbell or timer. */
    private final long idleMaxParkNs;
    private volatile boolean running = true;

    private Applier(ApplierConfig config, HikariDataSource dataSource, ReaderEnd ring, ReplicaSession session,
                    ApplierAgent agent, SequenceTracker sequences, SequenceReadings readings, ApplierMetrics metrics,
                    IdleStrategy idle) {
        this.config = config;
        this.idle = idle;
        this.idleMaxParkNs = TimeUnit.MICROSECONDS.toNanos(config.idleMaxParkUs());
        this.dataSource = dataSource;
        this.ring = ring;
        this.session = session;
        this.agent = agent;
        this.sequences = sequences;
        this.readings = readings;
        this.metrics = metrics;
        this.thread = new Thread(this::run, "rdmarepl-applier");
        agent.applyThread(thread);
    }

    /**
     * Connects to the replica (creating {@code rdmarepl.applied_position} if needed, making the database
     * read-only for clients), reads the applied position, creates the ring and starts applying. The ring starts at the
     * newest epoch it was ever given, {@code ring.epoch} or a kept one (an applier its supervisor restarted must go on
     * refusing a fenced shipper), and that epoch is kept before anything is applied.
     *
     * A network ring ({@code rdma://}, {@code softrdma://}) takes the cluster's secret from the environment
     * ({@link ChannelSecurity#fromEnvironment()}).
     *
     * @throws PromotedReplicaException when this replica was promoted at an epoch not older than {@code ring.epoch}: it
     *     is a primary, untouched; only an activation at a newer epoch (a switchover back) makes it follow again
     * @throws IllegalStateException naming the replica or ring when either cannot be reached or created
     */
    public static Applier start(ApplierConfig config, MeterRegistry registry) {
        return start(config, registry, ChannelSecurity.fromEnvironment());
    }

    /**
     * As {@link #start(ApplierConfig, MeterRegistry)}, with the cluster's secret given (null for a shm ring).
     */
    public static Applier start(ApplierConfig config, MeterRegistry registry, ChannelSecurity security) {
        LOG.info("starting applier with configuration:\n{}", config.describe());
        HikariDataSource dataSource;
        try {
            dataSource = ReplicaDataSource.create(config);
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot connect to the replica at " + config.replicaJdbcUrl() + " as "
                    + config.replicaUser() + ": " + rootMessage(e), e);
        }
        ReaderEnd ring = null;
        try {
            AppliedPositionStore positions = new AppliedPositionStore(config.sourceName());
            AppliedPosition position;
            try (Connection connection = dataSource.getConnection()) {
                positions.createIfMissing(connection);
                position = positions.read(connection);
            }
            if (position.promoted() && config.ringEpoch() <= position.promotedEpoch()) {
                throw new PromotedReplicaException(config.sourceName(), position, config.ringEpoch(), config.replicaJdbcUrl());
            }
            int ringEpoch = (int) Math.max(config.ringEpoch(), position.epoch());
            if (ringEpoch != config.ringEpoch()) {
                LOG.info("the ring starts at epoch {}, kept in {} (ring.epoch or the activation says {}): a shipper of an "
                        + "older epoch is refused (a cluster started over at a lower epoch: delete source {}'s row there)",
                        ringEpoch, AppliedPositionStore.TABLE, config.ringEpoch(), config.sourceName());
            }
            ring = Transports.openReader(config.ringUri(), new RingSettings(config.ringCapacityBytes(), ringEpoch,
                    ThreadLocalRandom.current().nextLong(), true), security);
            // once the ring is there: the replica turns read-only for its clients and drops its promoted mark together
            try (Connection connection = dataSource.getConnection()) {
                connection.setAutoCommit(false);
                if (config.replicaReadOnlyForClients()) {
                    ReadOnlyGuard.readOnlyForClients(connection);
                }
                if (ringEpoch != position.epoch() || position.promoted()) {
                    positions.keepEpochAndCommit(connection, ringEpoch, 0);
                } else {
                    connection.commit();
                }
                connection.setAutoCommit(true);
            }
            RingReader reader = new RingReader(ring);
            boolean commitsAsynchronously = config.synchronousCommit().equals("off");
            boolean rehearsePromotion = config.replicaReadOnlyForClients();
            ReplicaSession session = new ReplicaSession(dataSource, positions, commitsAsynchronously, rehearsePromotion);
            SequenceTracker sequences = new SequenceTracker();
            SequenceReadings readings = new SequenceReadings();
            ApplierMetrics metrics = new ApplierMetrics(registry);
            ApplierAgent agent = new ApplierAgent(config, reader, session,
                    () -> new ReplicaSession(dataSource, positions, commitsAsynchronously, rehearsePromotion),
                    sequences, readings, metrics, position);
            // straight to sleep on the ring's doorbell (or a park without one): spinning first (1,000 polls, then 10
            // yields) took 35-40% of this thread's CPU at bench lag --load max on 2 vCPUs, CPU the primary and the
            // shipper wanted, and did not shorten the idle lag (docs/benchmarks.md, 2026-12-06 12:50)
            IdleStrategy idle = BackoffIdleStrategy.forReader(reader, 0, 0, TimeUnit.MICROSECONDS.toNanos(config.idleMaxParkUs()));
            Applier applier = new Applier(config, dataSource, ring, session, agent, sequences, readings, metrics, idle);
            metrics.statusGauges(applier);
            applier.thread.start();
            LOG.info("applying {} from {} into {}, resuming after {}", config.sourceName(), config.ringUri(),
                    config.replicaJdbcUrl(), position);
            return applier;
        } catch (SQLException | RuntimeException e) {
            if (ring != null) {
                ring.close();
            }
            dataSource.close();
            if (e instanceof PromotedReplicaException promoted) {
                throw promoted;
            }
            throw new IllegalStateException("cannot start the applier on " + config.replicaJdbcUrl() + " and "
                    + config.ringUri() + ": " + rootMessage(e), e);
        }
    }

    public ApplierConfig config() {
        return config;
    }

    /** The latest snapshot (refreshed a few times a second and after every group). */
    @Override
    public ApplierStatus status() {
        return agent.status();
    }

    /**
     * Milliseconds since the ring last delivered a frame. The shipper sends heartbeats every few ms only
     * while it captures, so the coordinator reads a growing age as "the primary or its shipper is gone".
     */
    @Override
    public long lastMessageAgeMs() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - agent.lastMessageNs());
    }

    /** The /status document: {@link ApplierStatus#toMap()} and the age of the last frame, read now. */
    @Override
    public Map<String, Object> statusDocument() {
        Map<String, Object> document = new java.util.LinkedHashMap<>(status().toMap());
        document.put("last_message_age_ms", lastMessageAgeMs());
        return document;
    }

    /** True while the applier thread runs and is not paused on an error. */
    @Override
    public boolean healthy() {
        ApplierStatus s = status();
        return running && thread.isAlive() && s != null && !s.state().paused();
    }

    /** The highest value applied per sequence so far (promotion also reads the tables). */
    public Map<String, Long> sequencesSeen() {
        return sequences.snapshot();
    }

    /** The sequence states the primary shipped and this applier applied, the last two per sequence (promotion reads them). */
    public java.util.List<SequenceReadings.History> sequenceReadings() {
        return readings.snapshot();
    }

    /**
     * Applies everything the ring holds, then completes with the applied LSN; the applier keeps applying
     * (state draining) until promoted or {@link #follow told to follow} again, and no longer renews the primary's
     * lease meanwhile.
     */
    @Override
    public CompletableFuture<Long> drain() {
        CompletableFuture<Long> future = new CompletableFuture<>();
        agent.submit(() -> agent.drain(future));
        return future;
    }

    /** Calls a drain off: draining back to streaming, and the primary's lease renewed by this standby again. */
    @Override
    public void follow() {
        agent.submit(agent::follow);
    }

    /** Stops applying, lifts read-only for clients and sets every sequence past the primary's; returns what it set. */
    @Override
    public Map<String, Long> promote(Duration timeout) throws SQLException, TimeoutException, InterruptedException {
        CompletableFuture<Map<String, Long>> future = new CompletableFuture<>();
        agent.submit(() -> {
            try {
                future.complete(agent.promote());
            } catch (SQLException | RuntimeException e) {
                future.completeExceptionally(e);
            }
        });
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SQLException sql) {
                throw sql;
            }
            throw new IllegalStateException("promotion failed: " + e.getCause().getMessage(), e.getCause());
        }
    }

    /** From now on the ring refuses frames of any other epoch (a fenced shipper's). */
    @Override
    public void epoch(int epoch) {
        agent.submit(() -> agent.epoch(epoch));
    }

    @Override
    public void close() {
        if (!running) {
            return;
        }
        running = false;
        thread.interrupt();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // the gauges read this applier: an applier started later on the same registry registers its own
        metrics.removeSnapshotMeters();
        session.close();
        ring.close();
        dataSource.close();
    }

    private void run() {
        String lastFailure = null;
        while (running) {
            int work;
            try {
                work = agent.doWork();
                lastFailure = null;
            } catch (RuntimeException e) {
                if (!String.valueOf(e).equals(lastFailure)) {
                    LOG.error("apply loop failed unexpectedly; retrying in 1 s", e);
                    lastFailure = String.valueOf(e);
                }
                LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
                continue;
            } catch (Error e) {
                // out of memory and the like: the loop cannot go on, and /status must say so rather than streaming
                LOG.error("apply loop stopped", e);
                agent.stop("apply loop stopped by " + e);
                throw e;
            }
            // a lingering group sleeps on a timer: no doorbell per transaction arriving meanwhile; at most as long as
            // a doorbell sleep would (ApplierAgent.wakeUp ends either)
            long lingerNs = work == 0 ? Math.min(agent.lingerLeftNs(), idleMaxParkNs) : 0;
            if (lingerNs > 0) {
                LockSupport.parkNanos(lingerNs);
                continue;
            }
            idle.idle(work);
        }
        agent.stop("stopped");
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + root.getMessage() + ")";
    }
}
