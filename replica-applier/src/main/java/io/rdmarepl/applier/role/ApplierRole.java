package io.rdmarepl.applier.role;

import io.micrometer.core.instrument.MeterRegistry;
import io.rdmarepl.applier.apply.Applier;
import io.rdmarepl.applier.apply.ApplierControl;
import io.rdmarepl.applier.apply.ApplierState;
import io.rdmarepl.applier.apply.ApplierStatus;
import io.rdmarepl.applier.apply.PromotedReplicaException;
import io.rdmarepl.config.Activation;
import io.rdmarepl.applier.config.ApplierConfig;
import io.rdmarepl.applier.position.AppliedPosition;
import io.rdmarepl.format.Lsn;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The applier's side of a member host over time. Every member runs both a shipper and an applier, and only
 * the one the coordinator chose may touch its database and ring, so the role holds at most one applier:
 *
 * <pre>
 *   waiting --activate--> streaming ... draining --promote--> promoted --activate--> streaming ...
 *      ^                      |
 *      +-----deactivate-------+   (a rejoin taken back)
 *   (no connection,       (a new Applier: read-only            (the old Applier closed, its ring released;
 *    no ring)              guard, position table, ring)          a new one at the same ring URI)
 * </pre>
 *
 * With {@code activation=immediate} the role activates at once, as a plain {@code rdmarepl apply} always did.
 * Control actions are serialised; {@link #state()}, {@link #statusDocument()} and {@link #healthy()} never wait.
 */
public final class ApplierRole implements AutoCloseable, StatusWatch.Subject {
    private static final Logger LOG = LoggerFactory.getLogger(ApplierRole.class);
    /** The /status state while no applier runs. */
    public static final String WAITING = "waiting";

    private final ApplierConfig config;
    private final ApplierStarter starter;
    private volatile ApplierControl current;
    private volatile String lastActivationFailure;
    /** Set while no applier runs on a replica that was promoted before this process started ({@link PromotedReplicaException}). */
    private volatile AppliedPosition promotedBefore;
    private boolean closed;

    private ApplierRole(ApplierConfig config, ApplierStarter starter, ApplierControl current) {
        this.config = config;
        this.starter = starter;
        this.current = current;
    }

    /** {@link #create(ApplierConfig, ApplierStarter)} with real appliers reporting to {@code registry}. */
    public static ApplierRole create(ApplierConfig config, MeterRegistry registry) {
        return create(config, c -> Applier.start(c, registry));
    }

    /**
     * A role for {@code config}: following at once when {@link ApplierConfig#activation()} is immediate,
     * otherwise waiting, without a connection to the replica or a ring, until {@link #activate}. An immediate start
     * on a replica that was promoted waits too ({@link PromotedReplicaException}): a supervisor restarting the
     * applier of a member that took over as primary must leave it a primary.
     *
     * @throws RuntimeException from {@code starter} when an immediate activation cannot start the applier
     */
    public static ApplierRole create(ApplierConfig config, ApplierStarter starter) {
        if (config.activation() == Activation.IMMEDIATE) {
            try {
                return new ApplierRole(config, starter, starter.start(config));
            } catch (PromotedReplicaException e) {
                LOG.warn("not following: {}", e.getMessage());
                ApplierRole promoted = new ApplierRole(config, starter, null);
                promoted.promotedBefore = e.position();
                promoted.lastActivationFailure = e.getMessage();
                return promoted;
            }
        }
        LOG.info("applier for {} waits for POST /activate (activation={}): replica {} and ring {} untouched until then",
                config.sourceName(), config.activation().text(), config.replicaJdbcUrl(), config.ringUri());
        return new ApplierRole(config, starter, null);
    }

    /**
     * Wraps an applier its host process started itself (demo, benchmarks). An applier a later {@link #activate}
     * starts belongs to the role: close the role, not only the wrapped applier.
     */
    public static ApplierRole of(Applier applier, MeterRegistry registry) {
        return new ApplierRole(applier.config(), c -> Applier.start(c, registry), applier);
    }

    public ApplierConfig config() {
        return config;
    }

    /**
     * {@value #WAITING}, or the current applier's state ({@code streaming}, {@code promoted}, ...); {@code promoted} too
     * for a replica promoted before this process started.
     */
    @Override
    public String state() {
        ApplierControl applier = current;
        if (applier == null) {
            return promotedBefore != null ? ApplierState.PROMOTED.displayName() : WAITING;
        }
        return applier.status().state().displayName();
    }

    /** Since the current applier's ring last delivered a frame, in ms; Long.MAX_VALUE while waiting. */
    @Override
    public long lastMessageAgeMs() {
        ApplierControl applier = current;
        return applier == null ? Long.MAX_VALUE : applier.lastMessageAgeMs();
    }

    /** The applier following now (or promoted), if any. */
    public Optional<ApplierControl> current() {
        return Optional.ofNullable(current);
    }

    /**
     * The /status document: while waiting only {@code state}, {@code reason} and {@code activation} (there is no
     * position or ring yet); otherwise the applier's own document plus {@code activation}.
     */
    public Map<String, Object> statusDocument() {
        Map<String, Object> document = new LinkedHashMap<>();
        ApplierControl applier = current;
        if (applier == null && promotedBefore != null) {
            document.put("state", ApplierState.PROMOTED.displayName());
            document.put("reason", lastActivationFailure);
            document.put("applied_lsn", Lsn.format(promotedBefore.commitLsn()));
        } else if (applier == null) {
            String failure = lastActivationFailure;
            document.put("state", WAITING);
            document.put("reason", "waiting for POST /activate (activation=" + config.activation().text() + ")"
                    + (failure == null ? "" : "; the last activation failed: " + failure));
        } else {
            document.putAll(applier.statusDocument());
        }
        document.put("activation", config.activation().text());
        return document;
    }

    /** Waiting is healthy (the process is fine and ready to be activated); otherwise the applier decides. */
    public boolean healthy() {
        ApplierControl applier = current;
        return applier == null || applier.healthy();
    }

    /**
     * Starts following: allowed while waiting, or once the current applier is promoted or stopped (a member that
     * was primary rejoins as a standby). The old applier is closed first, which releases its ring (shm file,
     * listening port) so the new one takes the same URI. The new applier makes the replica read-only for
     * clients, creates the position table if missing, resumes after the stored position and creates a fresh
     * ring, at {@code epoch} when given.
     *
     * @return the new applier's first status (state streaming, ring URI, epoch)
     * @throws IllegalArgumentException when {@code epoch} is not positive
     * @throws IllegalStateException    when an applier is following already, or the role is closed
     * @throws ActivationException      when the applier cannot start; the role is then waiting and may be activated again
     */
    public synchronized ApplierStatus activate(OptionalInt epoch) {
        if (epoch.isPresent() && epoch.getAsInt() < 1) {
            throw new IllegalArgumentException("epoch must be a positive integer, got " + epoch.getAsInt());
        }
        if (closed) {
            throw new IllegalStateException("the applier is shutting down");
        }
        ApplierControl previous = current;
        if (previous != null) {
            ApplierStatus status = previous.status();
            if (status.state() != ApplierState.PROMOTED && status.state() != ApplierState.STOPPED) {
                throw new IllegalStateException("already following " + config.sourceName() + " through " + status.ringUri()
                        + " (state " + status.state().displayName() + "): only a promoted or stopped applier is activated again");
            }
            LOG.info("closing the {} applier (ring {}) before activating again", status.state().displayName(), status.ringUri());
            current = null;
            previous.close();
        }
        ApplierConfig settings = epoch.isPresent() ? config.withRingEpoch(epoch.getAsInt()) : config;
        ApplierControl started;
        try {
            started = starter.start(settings);
        } catch (RuntimeException e) {
            lastActivationFailure = e.getMessage();
            LOG.warn("activation failed, still waiting: {}", e.getMessage());
            throw new ActivationException("activation failed, still waiting: " + e.getMessage(), e);
        }
        lastActivationFailure = null;
        promotedBefore = null;
        current = started;
        ApplierStatus status = started.status();
        LOG.info("activated: following {} through {} at epoch {}", config.sourceName(), status.ringUri(), status.ringEpoch());
        return status;
    }

    /**
     * Applies everything the ring holds; the future completes with the applied LSN.
     *
     * @throws IllegalStateException when no applier follows (waiting, or stopped)
     */
    public synchronized CompletableFuture<Long> drain() {
        return following().drain();
    }

    /**
     * Calls a drain off: the applier follows the primary again and renews its lease.
     *
     * @throws IllegalStateException when no applier follows (waiting, or stopped)
     */
    public synchronized void follow() {
        following().follow();
    }

    /**
     * Stops applying and makes the replica writable; returns the sequences set.
     *
     * @throws IllegalStateException when no applier follows (waiting, or stopped)
     */
    public synchronized Map<String, Long> promote(Duration timeout) throws SQLException, TimeoutException, InterruptedException {
        if (current == null && promotedBefore != null) {
            return Map.of(); // the promotion committed before this process started: asked again, it is done
        }
        return following().promote(timeout);
    }

    /** The position applied up to: the current applier's, or the one a replica promoted before this process kept. */
    public long appliedLsn() {
        ApplierControl applier = current;
        AppliedPosition promoted = promotedBefore;
        return applier != null ? applier.status().appliedLsn() : promoted != null ? promoted.commitLsn() : 0;
    }

    /**
     * From now on the ring refuses frames of any other epoch.
     *
     * @throws IllegalStateException when no applier follows (waiting, or stopped)
     */
    public synchronized void epoch(int epoch) {
        if (epoch < 1) {
            throw new IllegalArgumentException("epoch must be a positive integer, got " + epoch);
        }
        AppliedPosition promoted = promotedBefore;
        if (current == null && promoted != null && epoch <= promoted.promotedEpoch()) {
            return; // promoted at that epoch already (a promotion asked again after this process restarted)
        }
        following().epoch(epoch);
    }

    /**
     * Stops following and waits again, as before an activation: the coordinator takes back an activation of a rejoin
     * that could not start the primary's shipper, so the next rejoin may activate this applier again. The applier is
     * closed and its ring released; the replica keeps what it applied (and its position).
     *
     * @return whether an applier was stopped (false: it was waiting already)
     * @throws IllegalStateException when the applier is promoted: this member takes writes, nothing follows here
     */
    public synchronized boolean deactivate() {
        ApplierControl applier = current;
        if (applier == null) {
            return false;
        }
        if (applier.status().state() == ApplierState.PROMOTED) {
            throw new IllegalStateException("promoted: this member takes writes; only a following applier is deactivated");
        }
        current = null;
        LOG.info("deactivated: the {} applier (ring {}) is closed; waiting for POST /activate",
                applier.status().state().displayName(), applier.status().ringUri());
        applier.close();
        return true;
    }

    /** Closes the current applier, if any; activating afterwards is refused. */
    @Override
    public synchronized void close() {
        closed = true;
        ApplierControl applier = current;
        current = null;
        if (applier != null) {
            applier.close();
        }
    }

    private ApplierControl following() {
        ApplierControl applier = current;
        if (applier == null) {
            throw new IllegalStateException("not following: activate it first (POST /activate)");
        }
        if (applier.status().state() == ApplierState.STOPPED) {
            throw new IllegalStateException("not following: the applier stopped; activate it first (POST /activate)");
        }
        return applier;
    }
}
