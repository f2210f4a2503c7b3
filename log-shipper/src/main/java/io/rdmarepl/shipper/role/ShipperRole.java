package io.rdmarepl.shipper.role;

import io.rdmarepl.control.FenceAnswer;
import io.rdmarepl.control.LeaseAnswer;
import io.rdmarepl.control.PrimaryAnswer;
import io.rdmarepl.control.ResumeAnswer;
import io.rdmarepl.control.RetireAnswer;
import io.rdmarepl.control.ShipperActivateAnswer;
import io.rdmarepl.shipper.Shipper;
import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.shipper.lease.Lease;
import io.rdmarepl.shipper.ship.StaleEpochException;
import io.rdmarepl.shipper.sync.SynchronousStandbyNames;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shipper's part in planned switchover and rejoin. Every member host runs a shipper and an applier; this holds
 * the shipper, or none, and moves between {@link RoleState}s when the coordinator asks (the admin endpoint's control
 * actions):
 *
 * <pre>
 *             activate              fence              retire
 *   waiting ───────────> shipping ─────────> fenced ───────────> retired
 *      │                  ^    ^               │                  │  ^
 *      │                  │    └───activate────┤                  │  │
 *      │                  │    └───resume──────┘                  │  │
 *      │                  └──────────────activate─────────────────┘  │
 *      └─────────────────────────────────retire──────────────────────┘
 * </pre>
 *
 * An activation always starts from a fresh slot with an initial copy, so a member that was a standby gets every
 * published table whole, whatever it held before. Retiring drops the slot, so a member that became a standby keeps
 * no WAL for a stream no one reads. Resuming starts a fenced shipper again from its slot, for a failover that fenced
 * this primary and was then refused. Refusals are {@link IllegalStateException}s naming the reason. One activation,
 * resumption or retirement runs at a time; {@link #fence} never waits for one: a fence that comes during an activation
 * or a resumption fences the shipper it starts.
 */
public final class ShipperRole implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ShipperRole.class);

    /** Starts a shipper (an activation passes the configuration with {@code snapshot.mode=initial}). */
    @FunctionalInterface
    public interface Starter {
        /**
         * @param leaseOpened told of the shipper's lease as soon as it is open, before the start connects to the
         *     standbys, so the coordinator's renewals reach it while the start waits
         */
        RunningShipper start(ShipperConfig config, Consumer<Lease> leaseOpened);
    }

    private final ShipperConfig config;
    private final Starter starter;
    private final SlotDropper slot;
    private RoleState state;
    private RunningShipper current;
    private String transition; // "an activation" or "a retirement" while one runs
    private String fenceDuringActivation;
    /** The ring epoch the current (or last) shipper was started at: a resumption ships at it again. */
    private int shipperEpoch;
    /** The lease of a shipper being started, from the moment it is open until the start ends; null otherwise. */
    private volatile Lease starting;
    /** Why no shipper runs although activation=immediate (retired before, or refused for its epoch); null otherwise. */
    private String note;

    /**
     * @param note       why no shipper runs although one might ({@link #status}'s {@code reason}), or null
     * @param transition {@code "a start"} for a role {@link #startAsConfigured} starts, else null
     */
    ShipperRole(ShipperConfig config, RoleState state, RunningShipper current, Starter starter, SlotDropper slot, String note,
                String transition) {
        this.config = config;
        this.state = state;
        this.current = current;
        this.starter = starter;
        this.slot = slot;
        this.note = note;
        this.transition = transition;
        this.shipperEpoch = config.ringEpoch();
    }

    /** Nothing runs until {@link #activate}. */
    public static ShipperRole waiting(ShipperConfig config, Starter starter, SlotDropper slot) {
        return new ShipperRole(config, RoleState.WAITING, null, starter, slot, null, null);
    }

    /** Holds {@code running}, a shipper already started. */
    public static ShipperRole shipping(ShipperConfig config, RunningShipper running, Starter starter, SlotDropper slot) {
        return new ShipperRole(config, RoleState.SHIPPING, running, starter, slot, null, null);
    }

    /**
     * Starts the shipper {@link InitialRole#prepare} left {@link RoleState#STARTING}, at the kept epoch or {@code ring.epoch}; does
     * nothing in any other state. A fence that comes meanwhile fences the shipper it starts.
     *
     * @throws RuntimeException what the start threw (the process exits; the lease, if one counts, stays with its guard),
     *     but for a standby refusing the epoch: the role then waits
     */
    public void startAsConfigured() {
        synchronized (this) {
            if (state != RoleState.STARTING) {
                return;
            }
        }
        ShipperConfig settings = config.withRingEpoch(ShipperEpoch.read(config).epoch().orElse(config.ringEpoch()));
        try {
            ship(startShipper(settings), settings.ringEpoch());
        } catch (StaleEpochException e) {
            waitForActivation(e.getMessage());
            LOG.warn("not shipping: {}", e.getMessage());
        } catch (RuntimeException e) {
            waitForActivation("the start failed: " + e.getMessage());
            throw e;
        } finally {
            endTransition();
        }
    }

    /**
     * Starts shipping from a fresh slot: stops a fenced shipper, drops {@code slot.name} if it exists (waiting for a
     * slot still in use to be let go of), then starts a shipper with {@code snapshot.mode=initial}, which copies
     * every published table to the standbys and then streams.
     *
     * @param epoch the coordinator's epoch: the shipper ships at it (a standby's ring at a newer one refuses it), and a
     *     later start of this process too ({@link ShipperEpoch}); null when not given (ships at the ring's epoch)
     * @throws IllegalStateException when shipping already, during another transition, or when the slot cannot be
     *     dropped or the shipper not started (the role then stays where it was, without a shipper)
     */
    public ShipperActivateAnswer activate(Integer epoch) {
        RunningShipper previous;
        synchronized (this) {
            refresh();
            refuseDuringTransition("activate");
            if (state == RoleState.SHIPPING) {
                throw new IllegalStateException("already shipping: fence this shipper first (POST /fence) to start over");
            }
            transition = "an activation";
            fenceDuringActivation = null;
            previous = current;
            current = null;
        }
        String forEpoch = epoch == null ? "" : " for epoch " + epoch;
        try {
            if (previous != null) {
                previous.close();
            }
            boolean dropped = slot.dropIfExists();
            LOG.info("activating{}: slot {} {}; copying every published table to the standbys, then streaming", forEpoch,
                    config.slotName(), dropped ? "dropped" : "did not exist");
            RunningShipper started = startShipper(config.withSnapshotMode("initial").withRingEpoch(epoch == null ? 0 : epoch));
            if (epoch != null) {
                ShipperEpoch.activated(config, epoch);
            }
            ship(started, epoch == null ? 0 : epoch);
            return new ShipperActivateAnswer(state().label(), config.slotName(), "initial", dropped);
        } catch (RuntimeException e) {
            LOG.warn("activation{} failed: {}", forEpoch, e.getMessage());
            throw e;
        } finally {
            endTransition();
        }
    }

    /**
     * A fenced shipper ships again, as a restart of this process would: the fenced one is closed and a new one starts
     * from the slot (no copy) at the epoch it shipped at. The coordinator asks for it after a failover that fenced this
     * primary was refused; a standby promoted since refuses that epoch, and the role then waits for an activation. A
     * primary its lease guard fenced stays fenced unless its read-only default was lifted first ({@code FencedStart}).
     *
     * @throws IllegalStateException when nothing was ever activated here (waiting, retired), during a transition, or
     *     when the start fails (the role stays fenced, without a shipper, and may be resumed again)
     */
    public ResumeAnswer resume() {
        RunningShipper previous;
        int epoch;
        synchronized (this) {
            refresh();
            refuseDuringTransition("resume");
            if (state == RoleState.SHIPPING) {
                return new ResumeAnswer(state.label(), false);
            }
            if (state != RoleState.FENCED) {
                throw new IllegalStateException("nothing to resume: the shipper is " + state.label()
                        + (note == null ? "" : " (" + note + ")") + "; the coordinator activates it (POST /activate)");
            }
            transition = "a resumption";
            fenceDuringActivation = null;
            previous = current;
            current = null;
            epoch = shipperEpoch;
        }
        try {
            if (previous != null) {
                previous.close();
            }
            ship(startShipper(config.withRingEpoch(epoch)), epoch);
            RoleState now = state();
            if (now == RoleState.SHIPPING) {
                LOG.warn("resumed at epoch {}: shipping again from slot {} (the coordinator lifted the fence: nothing was promoted)",
                        epoch, config.slotName());
            }
            return new ResumeAnswer(now.label(), true);
        } catch (StaleEpochException e) {
            waitForActivation(e.getMessage());
            throw new IllegalStateException("not resumed: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            synchronized (this) {
                note = "the resumption failed: " + e.getMessage();
            }
            LOG.warn("resumption failed: {}", e.getMessage());
            throw new IllegalStateException("not resumed: " + e.getMessage(), e);
        } finally {
            endTransition();
        }
    }

    /** Starts a shipper; while it starts, {@link #renewLease} renews the lease it opened. */
    private RunningShipper startShipper(ShipperConfig settings) {
        try {
            return starter.start(settings, lease -> starting = lease);
        } finally {
            starting = null;
        }
    }

    /** {@code started} ships at {@code epoch} from now on; a fence asked for while it started fences it at once. */
    private synchronized void ship(RunningShipper started, int epoch) {
        current = started;
        shipperEpoch = epoch;
        state = RoleState.SHIPPING;
        note = null;
        if (fenceDuringActivation != null) {
            started.fence(fenceDuringActivation);
            state = RoleState.FENCED;
        }
    }

    /** No shipper runs, and none will until the coordinator activates this one ({@code why}: a standby refused the epoch, ...). */
    private synchronized void waitForActivation(String why) {
        state = RoleState.WAITING;
        note = why;
    }

    private synchronized void endTransition() {
        transition = null;
        fenceDuringActivation = null;
    }

    /**
     * Stops shipping: the running shipper stops shipping and heartbeats at once (see {@link Shipper#fence}). Nothing
     * to do when nothing ships: the answer is the state it is in.
     */
    public synchronized FenceAnswer fence(String reason) {
        refresh();
        if ("an activation".equals(transition) || "a start".equals(transition) || "a resumption".equals(transition)) {
            fenceDuringActivation = reason;
            LOG.warn("fenced during {} ({}): the shipper it starts is fenced at once", transition, reason);
            return new FenceAnswer(RoleState.FENCED.label());
        }
        if (state == RoleState.SHIPPING) {
            current.fence(reason);
            state = RoleState.FENCED;
        }
        return new FenceAnswer(state.label());
    }

    /**
     * This member is a standby now: stops any shipper and drops the slot, so the primary keeps no WAL for it. In sync
     * mode it also clears {@code synchronous_standby_names}: a strict shipper leaves it set when it stops, and on a
     * standby every commit at synchronous_commit on (the server default; the applier's own with
     * {@code apply.synchronous.commit=on}) would wait forever for a shipper that no longer ships from here.
     *
     * @throws IllegalStateException while shipping ("fence it first"), during another transition, or when the slot
     *     cannot be dropped (naming the database)
     */
    public RetireAnswer retire() {
        RunningShipper previous;
        synchronized (this) {
            refresh();
            refuseDuringTransition("retire");
            if (state == RoleState.SHIPPING) {
                throw new IllegalStateException("still shipping: fence it first (POST /fence), then retire it");
            }
            transition = "a retirement";
            previous = current;
            current = null;
        }
        try {
            if (previous != null) {
                previous.close();
            }
            boolean dropped = slot.dropIfExists();
            boolean namesCleared = clearSynchronousStandbyNames();
            ShipperEpoch.retired(config);
            synchronized (this) {
                state = RoleState.RETIRED;
                note = null;
            }
            LOG.info("retired: slot {} {}; this shipper waits until it is activated again", config.slotName(),
                    dropped ? "dropped" : "did not exist");
            return new RetireAnswer(RoleState.RETIRED.label(), dropped, namesCleared);
        } catch (RuntimeException e) {
            LOG.warn("retirement failed: {}", e.getMessage());
            throw e;
        } finally {
            synchronized (this) {
                transition = null;
            }
        }
    }

    /** In sync mode, nothing on this member may wait for its shipper any more; false in async mode (never set). */
    private boolean clearSynchronousStandbyNames() {
        if (!config.sync().enabled()) {
            return false;
        }
        try {
            new SynchronousStandbyNames(config).disable();
            return true;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot clear synchronous_standby_names on " + config.databaseDescription()
                    + " (commits there would wait for a shipper that no longer ships): " + e.getMessage(), e);
        }
    }

    /**
     * The coordinator is still there: renews the running shipper's lease, if one runs.
     *
     * @return the running shipper's {@link RunningShipper#guarantee()} (null when none ships), this shipper's lease
     *     terms ({@link Shipper#leaseTerms}) and a running copy's {@link RunningShipper#copyProgress()}
     */
    public LeaseAnswer renewLease() {
        RunningShipper running = running();
        if (running == null) {
            Lease opening = starting;
            if (opening != null && opening.armed()) { // one an earlier shipper left counting; a new one counts once started
                opening.heard("coordinator");
            }
            return new LeaseAnswer(null, Shipper.leaseTerms(config), null);
        }
        running.renewLease();
        return new LeaseAnswer(running.guarantee(), Shipper.leaseTerms(config), running.copyProgress());
    }

    /**
     * The running shipper's {@link RunningShipper#primary(Duration)}; without one, only {@code shipping} false
     * (nothing is known of the primary), at once. Either says whether the role is fenced.
     *
     * @param wait how long to hold the answer for the primary's postmaster to exit (a long poll); zero for none
     */
    public PrimaryAnswer primary(Duration wait) throws InterruptedException {
        RunningShipper running = running();
        PrimaryAnswer answer = running == null ? PrimaryAnswer.notShipping() : running.primary(wait);
        return answer.withFenced(state() == RoleState.FENCED);
    }

    /** The process is fine: true unless a shipper ships and is not healthy. */
    public boolean healthy() {
        RunningShipper running;
        synchronized (this) {
            refresh();
            if (state != RoleState.SHIPPING) {
                return true;
            }
            running = current;
        }
        return running == null || running.healthy();
    }

    /** The running shipper stopped for a reason a restart would have to fix, or null. */
    public String failure() {
        RunningShipper running = running();
        return running == null ? null : running.failure();
    }

    public synchronized RoleState state() {
        refresh();
        return state;
    }

    /**
     * {@code role_state} and {@code activation}, then the shipper's own status when there is one; without one,
     * {@code state} (= {@code role_state}), {@code initial_copy} false and {@code copy_lsn} null.
     */
    public Map<String, Object> status() {
        RoleState now;
        RunningShipper running;
        String why;
        synchronized (this) {
            refresh();
            now = state;
            running = current;
            why = note;
        }
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("role_state", now.label());
        status.put("activation", config.activation().text());
        if (running != null) {
            status.putAll(running.status());
        } else {
            status.put("role", "shipper");
            status.put("state", now.label());
            status.put("source", config.sourceName());
            status.put("slot", config.slotName());
            status.put("initial_copy", false);
            status.put("copy_lsn", null);
            if (why != null) {
                status.put("reason", why);
            }
        }
        return status;
    }

    /** Stops the shipper, if any, waiting up to {@code drainTimeout} for the standbys (SIGTERM). */
    public void close(Duration drainTimeout) {
        RunningShipper running = takeForClose();
        if (running != null) {
            running.close(drainTimeout);
        }
    }

    @Override
    public void close() {
        RunningShipper running = takeForClose();
        if (running != null) {
            running.close();
        }
    }

    /**
     * Stops the shipper, if any, at once, leaving its lease counting: the process exits because shipping failed (a lost
     * standby), and the lease guard fences the primary unless a restarted shipper hears from a standby or the
     * coordinator within the lease.
     */
    public void abandon() {
        RunningShipper running = takeForClose();
        if (running != null) {
            running.abandon();
        }
    }

    private synchronized RunningShipper takeForClose() {
        RunningShipper running = current;
        current = null;
        return running;
    }

    private synchronized RunningShipper running() {
        return current;
    }

    /** A shipper whose lease ran out fenced itself: the role follows. */
    private void refresh() {
        if (state == RoleState.SHIPPING && current != null && current.fenced()) {
            state = RoleState.FENCED;
        }
    }

    private void refuseDuringTransition(String action) {
        if (transition != null) {
            throw new IllegalStateException("cannot " + action + " now: " + transition + " is in progress");
        }
    }
}
