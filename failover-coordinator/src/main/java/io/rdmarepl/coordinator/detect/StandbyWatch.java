package io.rdmarepl.coordinator.detect;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmarepl.coordinator.roles.RoleClient;
import io.rdmarepl.coordinator.roles.RoleException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Reads one standby's applier {@code /status} every interval on its own thread: how long since its ring
 * delivered a frame (the shipper's heartbeats stop with the primary), its positions and its backlog.
 */
public final class StandbyWatch implements StandbyMonitor {
    private final String name;
    private final URI admin;
    private final RoleClient roles;
    private final long intervalNs;
    private final Duration timeout;
    private final Thread thread;
    private volatile boolean running = true;
    /** A report and when it arrived (System.nanoTime()), swapped together so a reader never mixes two reports. */
    private record Reading(StandbyView view, long arrivedNs, String lastError) {
    }

    private volatile Reading last;
    /** Why the applier is paused or retrying (its /status last_error), else null. */
    private volatile String applierError;
    /** Consecutive failed reads; only the watch thread touches it. */
    private int failedReads;
    private static final int FAILED_READS_UNREACHABLE = 3;

    public StandbyWatch(String name, URI admin, RoleClient roles, Duration interval) {
        this.name = name;
        this.admin = admin;
        this.roles = roles;
        this.intervalNs = interval.toNanos();
        this.timeout = Duration.ofMillis(Math.max(200, interval.toMillis() * 20));
        this.last = new Reading(StandbyView.unknown(name, "not read yet"), System.nanoTime(), null);
        this.thread = new Thread(this::run, "rdmarepl-watch-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    /** The last report, with the heartbeat age brought forward to now. */
    @Override
    public StandbyView view() {
        Reading reading = last;
        StandbyView v = reading.view();
        if (!v.reachable() || v.heartbeatAgeMs() == Long.MAX_VALUE) {
            return v;
        }
        return v.agedBy(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - reading.arrivedNs()));
    }

    @Override
    public String name() {
        return name;
    }

    /** Why the applier is paused or retrying, as its last report said (e.g. a divergence naming table and key), else null. */
    @Override
    public String applierError() {
        return applierError;
    }

    public URI admin() {
        return admin;
    }

    @Override
    public StandbyView freshView(Duration wait) {
        StandbyView seen = view();
        if (seen.reachable()) {
            return seen;
        }
        try {
            Reading read = read(wait);
            return read.view(); // not stored: the watch thread keeps its own count of failed reads
        } catch (RoleException e) {
            return seen;
        }
    }

    private Reading read(Duration wait) {
        JsonNode status = roles.status(admin, wait);
        StandbyView read = new StandbyView(name, true, status.path("state").asText("unknown"),
                status.path("position").path("applied_lsn").asText(null),
                status.path("position").path("durable_lsn").asText(null),
                status.path("last_message_age_ms").asLong(Long.MAX_VALUE),
                status.path("ring").path("backlog_bytes").asLong(Long.MAX_VALUE),
                status.path("lag_ms").asLong(-1), status.path("ring").path("epoch").asInt(0), null);
        // the age was read when the answer left the applier: count on from its arrival, not from the request, or
        // the round trip is taken for silence
        return new Reading(read, System.nanoTime(), status.path("last_error").asText(null));
    }

    private void run() {
        while (running) {
            long start = System.nanoTime();
            try {
                Reading reading = read(timeout);
                last = reading;
                failedReads = 0;
                StandbyView read = reading.view();
                boolean stopped = read.state().startsWith("paused") || read.state().equals("retrying");
                applierError = stopped ? reading.lastError() : null;
            } catch (RoleException e) {
                // one slow answer (a GC pause, a busy host) is not an unreachable applier: the last report stands,
                // its heartbeat age still growing, until reads have failed FAILED_READS_UNREACHABLE times in a row
                Reading kept = last;
                if (++failedReads >= FAILED_READS_UNREACHABLE || !kept.view().reachable()) {
                    last = new Reading(StandbyView.unknown(name, e.getMessage()), System.nanoTime(), null);
                } else {
                    // still reachable, but marked, so a standby whose last read answered is preferred
                    last = new Reading(kept.view().afterFailedRead(e.getMessage()), kept.arrivedNs(), kept.lastError());
                }
            }
            long sleep = intervalNs - (System.nanoTime() - start);
            if (sleep > 0) {
                LockSupport.parkNanos(sleep);
            }
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
