package io.rdmarepl.coordinator.detect;

import io.rdmarepl.coordinator.roles.RoleClient;
import io.rdmarepl.coordinator.roles.RoleException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Reads the primary's shipper {@code GET /primary} every interval on its own thread: whether the shipper saw the
 * primary's postmaster exit. That is a fact read from /proc beside the primary, not a missed answer, so it stands
 * in for the heartbeat silence that otherwise tells a dead primary from a stalled one (the probe must still fail:
 * see {@link Detection#judge}). Nothing known (no shipper, a shipper that cannot watch, no answer) counts as "not
 * exited": detection then waits for the silence as before.
 */
public final class PostmasterReport implements AutoCloseable {
    private final RoleClient roles;
    private final long intervalNs;
    private final Duration timeout;
    private final long staleNs;
    private final Thread thread;
    private volatile URI target;
    private volatile boolean running = true;
    /** When the last report saying "exited" about {@link #target} arrived (System.nanoTime()), or 0. */
    private volatile long exitedReportNs;
    private volatile String exit;

    public PostmasterReport(RoleClient roles, Duration interval) {
        this.roles = roles;
        this.intervalNs = interval.toNanos();
        this.timeout = Duration.ofMillis(Math.max(50, interval.toMillis() * 10));
        // an old report is no report: the shipper may have reconnected to a restarted primary since
        this.staleNs = Math.max(Duration.ofMillis(100).toNanos(), intervalNs * 20);
        this.thread = new Thread(this::run, "rdmarepl-postmaster-report");
        thread.setDaemon(true);
        thread.start();
    }

    /** The shipper admin endpoint of the current primary, or null to read none. */
    public void target(URI shipperAdmin) {
        if (shipperAdmin == null || !shipperAdmin.equals(target)) {
            exitedReportNs = 0;
            exit = null;
        }
        target = shipperAdmin;
    }

    /** The primary's shipper reported, recently, that the primary's postmaster exited. */
    public boolean postmasterExited() {
        long at = exitedReportNs;
        return at != 0 && System.nanoTime() - at < staleNs;
    }

    /** What the shipper said of the exit (e.g. "process 4711 exited (state Z)"), or null. */
    public String exit() {
        return postmasterExited() ? exit : null;
    }

    private void run() {
        while (running) {
            long start = System.nanoTime();
            URI shipper = target;
            if (shipper != null) {
                read(shipper);
            }
            long sleep = intervalNs - (System.nanoTime() - start);
            LockSupport.parkNanos(Math.max(sleep, 1));
        }
    }

    private void read(URI shipper) {
        try {
            var answer = roles.get(shipper, "/primary", timeout);
            if (!shipper.equals(target)) {
                return; // retargeted meanwhile: this answer is about the old primary
            }
            if (answer.path("postmaster_exited").asBoolean(false)) {
                exit = answer.path("postmaster").path("watch").asText("exited");
                exitedReportNs = System.nanoTime();
            } else {
                exitedReportNs = 0;
            }
        } catch (RoleException e) {
            // a shipper that does not answer says nothing; the last "exited" ages out by itself
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
