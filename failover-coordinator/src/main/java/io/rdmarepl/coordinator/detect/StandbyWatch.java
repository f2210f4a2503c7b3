package io.rdmarepl.coordinator.detect;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmarepl.control.ApplierRoutes;
import io.rdmarepl.coordinator.roles.RoleClient;
import io.rdmarepl.coordinator.roles.RoleException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Watches one standby's applier on its own thread: how long since its ring delivered a frame (the shipper's heartbeats
 * stop with the primary), its state, positions and backlog.
 *
 * <p>It asks the applier's {@code /status/watch}, which holds the question until the answer would differ from the last
 * one: the ring's silence passed {@code silence} (the detection threshold, {@code detect.heartbeat.ms}), a frame ended a
 * silence, or the state changed; else it answers after {@link #HOLD}. So while frames come, the heartbeat age it
 * reports stays at most {@code silence} (the applier would have said otherwise), and a silence is known the moment the
 * applier sees it, with a few requests a second instead of one every {@code detect.interval.ms}: read that often,
 * /status cost the coordinator and each applier a tenth of a core on an idle cluster. Positions and backlog are up to
 * {@link #HOLD} old while nothing else changes; a switchover that waits for a position reads it now ({@link #readNow}).
 *
 * <p>A watch held longer than {@link #HOLD} plus the read timeout is a failed read, and the heartbeat age counts on from
 * the last answer, as it does after any failed read; after a failure the watch asks {@code /status} plainly, with the
 * short timeout, until the applier answers again.
 */
public final class StandbyWatch implements StandbyMonitor {
    /** How long the applier holds a watch in which nothing changed. */
    static final Duration HOLD = Duration.ofMillis(500);
    private final String name;
    private final URI admin;
    private final RoleClient roles;
    private final long intervalNs;
    private final long silenceMs;
    private final Duration hold;
    private final Duration timeout;
    private final Thread thread;
    private volatile boolean running = true;
    /** A report and when it arrived (System.nanoTime()), swapped together so a reader never mixes two reports. */
    private record Reading(StandbyView view, long arrivedNs, String lastError) {
    }

    private volatile Reading last;
    /**
     * When the watch now held by the applier was sent on a report that heard frames (System.nanoTime()), 0 when none
     * is: until it answers, or could have, the applier has heard within {@code silence}.
     */
    private volatile long heldSinceNs;
    /** Why the applier is paused or retrying (its /status last_error), else null. */
    private volatile String applierError;
    /** Consecutive failed reads; only the watch thread touches it. */
    private int failedReads;
    private static final int FAILED_READS_UNREACHABLE = 3;

    /** @param silence the detection's threshold: a ring silent this long says the primary may be gone */
    public StandbyWatch(String name, URI admin, RoleClient roles, Duration interval, Duration silence) {
        this(name, admin, roles, interval, silence, HOLD);
    }

    StandbyWatch(String name, URI admin, RoleClient roles, Duration interval, Duration silence, Duration hold) {
        this.name = name;
        this.admin = admin;
        this.roles = roles;
        this.intervalNs = interval.toNanos();
        this.silenceMs = silence.toMillis();
        this.hold = hold;
        this.timeout = Duration.ofMillis(Math.max(200, interval.toMillis() * 20));
        this.last = new Reading(StandbyView.unknown(name, "not read yet"), System.nanoTime(), null);
        this.thread = new Thread(this::run, "rdmarepl-watch-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * The last report, with the heartbeat age brought forward to now; while the applier holds a watch sent on a report
     * that heard frames, at most {@code silence}.
     */
    @Override
    public StandbyView view() {
        Reading reading = last;
        StandbyView v = reading.view();
        if (!v.reachable() || v.heartbeatAgeMs() == Long.MAX_VALUE) {
            return v;
        }
        long nowNs = System.nanoTime();
        long agedMs = TimeUnit.NANOSECONDS.toMillis(nowNs - reading.arrivedNs());
        long heldSince = heldSinceNs;
        if (heldSince != 0 && nowNs - heldSince < holdLimitNs() && v.heartbeatAgeMs() <= silenceMs) {
            // the applier answers the moment its ring's silence passes the threshold: it has not yet
            agedMs = Math.min(agedMs, silenceMs - v.heartbeatAgeMs());
        }
        return v.agedBy(agedMs);
    }

    /** A held watch that has not answered by now will not: the read times out. */
    private long holdLimitNs() {
        return hold.plus(timeout).toNanos();
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

    /**
     * A report read now, waiting up to {@code wait} for the applier's answer; the last one ({@link #view()}) when it
     * does not answer. For a caller waiting for a position to move, which the watch reports only every {@link #HOLD}.
     */
    @Override
    public StandbyView readNow(Duration wait) {
        try {
            return read(ApplierRoutes.STATUS, wait).view();
        } catch (RoleException e) {
            return view();
        }
    }

    private Reading read(String path, Duration wait) {
        JsonNode status = roles.get(admin, path, wait);
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

    private Reading read(Duration wait) {
        return read(ApplierRoutes.STATUS, wait);
    }

    /** Asks the applier to answer once its report differs from {@code prior}'s, or after {@link #HOLD}. */
    private Reading watch(StandbyView prior) {
        boolean heard = prior.heartbeatAgeMs() <= silenceMs;
        String query = "?silence_ms=" + silenceMs + "&seen=" + (heard ? "heard" : "silent") + "&state="
                + URLEncoder.encode(prior.state(), StandardCharsets.UTF_8) + "&wait_ms=" + hold.toMillis();
        heldSinceNs = heard ? System.nanoTime() : 0;
        try {
            return read(ApplierRoutes.STATUS_WATCH + query, hold.plus(timeout));
        } finally {
            heldSinceNs = 0;
        }
    }

    private void run() {
        while (running) {
            long start = System.nanoTime();
            try {
                Reading kept = last;
                // a watch only on a report that answered: after a failure the short timeout finds an unreachable applier
                Reading reading = kept.view().reachable() && kept.view().error() == null ? watch(kept.view()) : read(timeout);
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
            // never more often than every interval: an applier without the watch route answers at once
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
