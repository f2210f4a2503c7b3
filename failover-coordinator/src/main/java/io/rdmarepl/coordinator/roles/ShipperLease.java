package io.rdmarepl.coordinator.roles;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renews the primary's shipper lease ({@code POST /lease}) every {@link #INTERVAL} on its own thread, while the
 * leading coordinator says the primary is in service. A shipper that hears from neither the coordinator nor a
 * standby for its {@code fence.lease.ms} fences itself, so renewals stop the moment this coordinator stops
 * leading or starts a failover.
 */
public final class ShipperLease implements AutoCloseable {
    static final Duration INTERVAL = Duration.ofMillis(100);
    private static final Logger LOG = LoggerFactory.getLogger(ShipperLease.class);

    private final RoleClient roles;
    private final Thread thread;
    private volatile URI target;
    private volatile JsonNode lastAnswer;
    private volatile boolean running = true;
    private String lastFailure;

    public ShipperLease(RoleClient roles) {
        this.roles = roles;
        this.thread = new Thread(this::run, "rdmarepl-shipper-lease");
        thread.setDaemon(true);
        thread.start();
    }

    /** The shipper admin endpoint to renew, or null to renew none. */
    public void target(URI shipperAdmin) {
        if (shipperAdmin != null && !shipperAdmin.equals(target)) {
            lastAnswer = null; // another primary's shipper: what the old one promised does not carry over
        }
        this.target = shipperAdmin;
    }

    /**
     * The shipper's last answer to a renewal, or null: its {@code replication_mode}, {@code sync_state} and
     * {@code acknowledged_lsn} (every commit up to it is held by the standbys), at most 100 ms old while it answers.
     */
    public JsonNode lastAnswer() {
        return lastAnswer;
    }

    private void run() {
        while (running) {
            URI shipper = target;
            if (shipper != null) {
                try {
                    lastAnswer = roles.post(shipper, "/lease", "", Duration.ofMillis(500));
                    if (lastFailure != null) {
                        LOG.info("shipper lease renewed again at {}", shipper);
                        lastFailure = null;
                    }
                } catch (RoleException e) {
                    if (!e.getMessage().equals(lastFailure)) {
                        LOG.warn("cannot renew the shipper's lease: {}", e.getMessage());
                        lastFailure = e.getMessage();
                    }
                }
            }
            LockSupport.parkNanos(INTERVAL.toNanos());
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
