package io.rdmarepl.shipper.sync;

import io.rdmarepl.format.Lsn;
import io.rdmarepl.shipper.config.SyncSettings;
import io.rdmarepl.shipper.ship.AckTracker;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sync mode on the capture thread. After each batch it waits until the quorum of standbys holds what the batch
 * shipped, so the offsets committed right after confirm those commits to the primary and release their clients;
 * Debezium reads no further meanwhile, so the transactions that commit during the wait form the next batch (group
 * commit, as PostgreSQL's own synchronous replication does). Strict: it waits as long as it takes, and so do the
 * primary's commits. Degrading: after {@code sync.degrade.after.ms} it lists no synchronous standby any more,
 * loudly, and lists it again once the standbys caught up.
 */
public final class SyncGate {
    private static final Logger LOG = LoggerFactory.getLogger(SyncGate.class);
    private static final long PARK_NS = TimeUnit.MICROSECONDS.toNanos(20);

    /** Where sync mode stands; the code is the metric's value. */
    public enum State {
        ASYNC(0), ENABLING(1), SYNC(2), DEGRADED(3), FAILED(4);

        private final int code;

        State(int code) {
            this.code = code;
        }

        public int code() {
            return code;
        }

        /** As /status and the coordinator show it: sync, degraded... */
        public String text() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final SyncSettings settings;
    private final SynchronousStandbyNames names;
    private final AckTracker acks;
    private final BooleanSupplier stopping;
    private volatile State state;
    private volatile long waitingSinceNs;
    private long watchedLsn; // the watch thread's only
    private volatile long degradations;
    private volatile String failure;

    /**
     * @param names    null in async mode
     * @param stopping true once the shipper stops or is fenced: a wait ends then
     */
    public SyncGate(SyncSettings settings, SynchronousStandbyNames names, AckTracker acks, BooleanSupplier stopping) {
        this.settings = settings;
        this.names = names;
        this.acks = acks;
        this.stopping = stopping;
        this.state = settings.enabled() ? State.ENABLING : State.ASYNC;
    }

    /** Lists the shipper in synchronous_standby_names once its replication connection streams, on its own thread. */
    public void enableInBackground(Duration timeout) {
        if (!settings.enabled()) {
            return;
        }
        Thread enabling = new Thread(() -> {
            try {
                names.enableOnceStreaming(timeout, stopping);
                state = State.SYNC;
                LOG.info("sync mode on: commits on the primary wait until {} of the required standbys hold them ({})",
                        settings.standbys(), names.name());
            } catch (SQLException | RuntimeException e) {
                if (stopping.getAsBoolean()) {
                    LOG.debug("sync mode not enabled: {}", e.getMessage()); // stopped or fenced first: no failure of its own
                    return;
                }
                failure = "sync mode could not be enabled: " + e.getMessage();
                state = State.FAILED;
                LOG.error(failure);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "rdmarepl-sync-enable");
        enabling.setDaemon(true);
        enabling.start();
    }

    /**
     * Once the capture created the slot: strict sync holds the primary's commits from then on, through the copy
     * ({@link SynchronousStandbyNames#holdCommits}); {@code /status} says {@code enabling} until the primary counts the
     * standbys' acknowledgements.
     */
    public void holdCommits() {
        if (names != null) {
            names.holdCommits();
        }
    }

    /** Whether offsets must be committed after every batch (the flush LSN is what releases the commits). */
    public boolean enabled() {
        return settings.enabled();
    }

    /**
     * After a batch shipped up to {@code shippedLsn}: in sync mode, waits until the quorum holds it (or the policy
     * degrades, or the shipper stops).
     */
    public void afterBatch(long shippedLsn) {
        State now = state;
        if (now == State.DEGRADED) {
            if (Lsn.compare(acks.acknowledged(), shippedLsn) >= 0) {
                restore();
            }
            return;
        }
        if (now != State.SYNC) {
            return;
        }
        if (Lsn.compare(acks.acknowledged(), shippedLsn) >= 0) {
            return;
        }
        long startNs = System.nanoTime();
        waitingSinceNs = startNs;
        acks.awaiting(shippedLsn);
        try {
            while (Lsn.compare(acks.acknowledged(), shippedLsn) < 0 && !stopping.getAsBoolean()) {
                if (!settings.strict() && System.nanoTime() - startNs > TimeUnit.MILLISECONDS.toNanos(settings.degradeAfterMs())) {
                    degrade(shippedLsn);
                    return;
                }
                LockSupport.parkNanos(PARK_NS);
            }
        } finally {
            acks.awaiting(0); // degraded or stopping: the handlers go back to reading feedback at each heartbeat
            waitingSinceNs = 0;
        }
    }

    /**
     * The native engine's sync mode, from a watch thread: the primary's commits wait in its walsender and capture never
     * does, so this only applies the degrade policy and its restoration, without blocking. A transaction shipped at
     * {@code shippedLsn} and still unacknowledged {@code sync.degrade.after.ms} after this first saw it degrades; the
     * clock restarts with each position that was acknowledged in time, so a steady stream of quickly acknowledged
     * transactions never adds up to a wait.
     */
    public void watch(long shippedLsn) {
        State now = state;
        boolean held = Lsn.compare(acks.acknowledged(), shippedLsn) >= 0;
        if (now == State.DEGRADED) {
            if (held) {
                restore();
            }
            return;
        }
        if (now != State.SYNC || held) {
            watchedLsn = 0;
            waitingSinceNs = 0;
            return;
        }
        long nowNs = System.nanoTime();
        if (watchedLsn == 0 || Lsn.compare(acks.acknowledged(), watchedLsn) >= 0) {
            watchedLsn = shippedLsn; // the previous one was acknowledged: time the newest
            waitingSinceNs = nowNs;
            return;
        }
        if (!settings.strict() && nowNs - waitingSinceNs > TimeUnit.MILLISECONDS.toNanos(settings.degradeAfterMs())) {
            degrade(watchedLsn);
            watchedLsn = 0;
            waitingSinceNs = 0;
        }
    }

    /** Before a graceful stop: a degrading policy does not leave the primary's commits blocked behind a shipper that is gone. */
    public void beforeStop() {
        if (!settings.enabled() || state == State.FAILED) {
            return;
        }
        if (settings.strict()) {
            LOG.warn("stopping in strict sync mode: commits on the primary wait until a shipper streams as {} again", names.name());
            return;
        }
        try {
            names.disable();
            state = State.DEGRADED;
            LOG.warn("stopping: synchronous_standby_names cleared, commits on the primary no longer wait (async) until the shipper is back");
        } catch (SQLException e) {
            LOG.warn("stopping: synchronous_standby_names could not be cleared ({}): commits on the primary wait until the shipper is back",
                    e.getMessage());
        }
    }

    private void degrade(long shippedLsn) {
        try {
            names.disable();
        } catch (SQLException e) {
            LOG.warn("sync mode: the standbys did not acknowledge {} within {} ms, but the primary could not be switched to async "
                    + "({}); commits keep waiting", Lsn.format(shippedLsn), settings.degradeAfterMs(), e.getMessage());
            return;
        }
        state = State.DEGRADED;
        degradations++;
        LOG.warn("SYNC MODE DEGRADED TO ASYNC: the standbys did not acknowledge {} within sync.degrade.after.ms={} ms; commits on "
                + "the primary no longer wait and a failover now may lose them; back to sync once the standbys caught up",
                Lsn.format(shippedLsn), settings.degradeAfterMs());
    }

    private void restore() {
        try {
            names.enable();
            state = State.SYNC;
            LOG.warn("sync mode restored: the standbys caught up; commits on the primary wait for them again");
        } catch (SQLException e) {
            LOG.warn("sync mode: the standbys caught up but synchronous_standby_names could not be set again ({}); still async",
                    e.getMessage());
        }
    }

    public State state() {
        return state;
    }

    public long degradations() {
        return degradations;
    }

    /** How long the oldest commit not yet held by the standbys has waited for them; 0 when none waits. */
    public long waitingMs() {
        long since = waitingSinceNs;
        return since == 0 ? 0 : TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
    }

    /** Why sync mode could not be enabled, or null. */
    public String failure() {
        return failure;
    }

    /** The {@code sync} object of {@code /status}. */
    public Map<String, Object> status() {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("mode", settings.enabled() ? "sync" : "async");
        if (!settings.enabled()) {
            return status;
        }
        status.put("state", state.text());
        status.put("policy", settings.policy());
        status.put("standbys", settings.standbys());
        status.put("level", settings.applied() ? "remote_apply" : "remote_flush");
        status.put("application_name", names.name());
        status.put("waiting_ms", waitingMs());
        status.put("degradations", degradations);
        status.put("error", failure);
        return status;
    }
}
