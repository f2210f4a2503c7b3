package io.rdmarepl.coordinator.roles;

import io.rdmarepl.control.ControlJson;
import io.rdmarepl.control.LeaseAnswer;
import io.rdmarepl.control.ShipperRoutes;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renews the primary's shipper lease ({@code POST /lease}) every {@link #INTERVAL} on its own thread, while the
 * leading coordinator says the primary is in service. A shipper that hears from neither the coordinator nor a
 * standby for its {@code fence.lease.ms} fences itself, so renewals stop the moment this coordinator stops
 * leading or starts a failover: each renewal asks the state store whether it still leads, so a coordinator thread
 * that is held up (in a write to a ZooKeeper that does not answer) renews nothing meanwhile. It also keeps the latest moment a renewal could have reached a shipper
 * ({@link #lastRenewalNs}), from which a failover counts the old primary's lease.
 */
public final class ShipperLease implements AutoCloseable {
    static final Duration INTERVAL = Duration.ofMillis(100);
    static final Duration TIMEOUT = Duration.ofMillis(500);
    private static final Logger LOG = LoggerFactory.getLogger(ShipperLease.class);

    private final RoleClient roles;
    private final BooleanSupplier leading;
    private final Thread thread;
    private final Object renewal = new Object();
    private volatile URI target;
    private volatile LeaseAnswer lastAnswer;
    private volatile boolean running = true;
    /** A renewal is being sent (guarded by {@code renewal}). */
    private boolean inFlight;
    /** When the last renewal ended, answered or not, or this coordinator took the lead (guarded by {@code renewal}). */
    private long lastEndedNs = System.nanoTime();
    private String lastFailure;

    /** @param leading whether this coordinator leads now (the state store's word); nothing is renewed while it does not */
    public ShipperLease(RoleClient roles, BooleanSupplier leading) {
        this.roles = roles;
        this.leading = leading;
        this.thread = new Thread(this::run, "rdmarepl-shipper-lease");
        thread.setDaemon(true);
        thread.start();
    }

    /** The shipper admin endpoint to renew, or null to renew none: no renewal starts after this returns. */
    public void target(URI shipperAdmin) {
        synchronized (renewal) {
            if (shipperAdmin != null && !shipperAdmin.equals(target)) {
                lastAnswer = null; // another primary's shipper: what the old one promised does not carry over
            }
            this.target = shipperAdmin;
        }
    }

    /**
     * This coordinator leads from now on (also at its start): another one may have renewed the lease until now, so
     * this counts as a renewal.
     */
    public void tookOver() {
        synchronized (renewal) {
            lastEndedNs = Math.max(lastEndedNs, System.nanoTime());
        }
    }

    /**
     * The latest moment (System.nanoTime()) a renewal from this coordinator, or from one that led before it, could have
     * reached a shipper: the end of the last renewal, answered or not; a renewal on its way is waited for (its
     * timeout bounds that). A renewal the network delivers after its request gave up is not accounted for.
     */
    public long lastRenewalNs() {
        synchronized (renewal) {
            while (inFlight) {
                try {
                    renewal.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for a lease renewal to end", e);
                }
            }
            return lastEndedNs;
        }
    }

    /**
     * The shipper's last answer to a renewal, or null: its guarantee (the replication mode, and the acknowledged LSN
     * up to which every commit is held by the standbys), at most 100 ms old while it answers, its lease's terms and a
     * running copy's progress.
     */
    public LeaseAnswer lastAnswer() {
        return lastAnswer;
    }

    private void run() {
        while (running) {
            URI shipper;
            synchronized (renewal) {
                shipper = target != null && leading.getAsBoolean() ? target : null;
                inFlight = shipper != null;
            }
            if (shipper != null) {
                try {
                    lastAnswer = ControlJson.read(roles.post(shipper, ShipperRoutes.LEASE, "", TIMEOUT), LeaseAnswer.class);
                    if (lastFailure != null) {
                        LOG.info("shipper lease renewed again at {}", shipper);
                        lastFailure = null;
                    }
                } catch (RoleException e) {
                    failed("cannot renew the shipper's lease: " + e.getMessage());
                } catch (IllegalArgumentException e) {
                    // renewed, but the answer does not fit: the last one understood stands, its lease terms above all
                    failed("the shipper at " + shipper + " renewed its lease but answered something else than a lease answer ("
                            + e.getMessage() + ")");
                } finally {
                    synchronized (renewal) {
                        inFlight = false;
                        lastEndedNs = Math.max(lastEndedNs, System.nanoTime());
                        renewal.notifyAll();
                    }
                }
            }
            LockSupport.parkNanos(INTERVAL.toNanos());
        }
    }

    private void failed(String why) {
        if (!why.equals(lastFailure)) {
            LOG.warn("{}", why);
            lastFailure = why;
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
