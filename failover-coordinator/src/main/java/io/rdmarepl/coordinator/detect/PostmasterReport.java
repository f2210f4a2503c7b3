package io.rdmarepl.coordinator.detect;

import io.rdmarepl.control.ControlJson;
import io.rdmarepl.control.PrimaryAnswer;
import io.rdmarepl.control.ShipperRoutes;
import io.rdmarepl.coordinator.roles.RoleClient;
import io.rdmarepl.coordinator.roles.RoleException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Asks the primary's shipper, on its own thread, whether it saw the primary's postmaster exit. That is a fact read
 * from /proc beside the primary, not a missed answer, so it stands in for the heartbeat silence that otherwise
 * tells a dead primary from a stalled one (the probe must still fail: see {@link Detection#judge}). Nothing known
 * (no shipper, a shipper that cannot watch, no answer) counts as "not exited": detection then waits for the silence
 * as before.
 *
 * <p>A long poll, {@code GET /primary?wait_ms=}{@link #LONG_POLL}: the shipper holds the request until the
 * postmaster exits, so the news arrives the moment the shipper has it and {@code onExit} runs at once (the
 * detector starts the probe that confirms it and wakes the coordinator), where polling every interval added up to
 * an interval on a busy host, and 200 requests a second. While the exit stands it is read again every interval
 * (the answer comes at once), so an old report ages out. A shipper that says it watches no postmaster (the primary
 * on another host or behind a pooler) is asked again only every {@link #NOT_WATCHING_PAUSE}; one that answers
 * without holding (an older shipper) every interval, as before. Each answer also says whether the shipper is fenced
 * ({@link #shipperFenced}), which the coordinator lifts when no failover happened.
 */
public final class PostmasterReport implements AutoCloseable {
    static final Duration NOT_WATCHING_PAUSE = Duration.ofSeconds(1);
    /**
     * How long the shipper holds a request: a retarget (the primary changed) waits for the held one to end, so
     * this bounds how late the new primary's watch starts to count.
     */
    static final Duration LONG_POLL = Duration.ofMillis(500);

    private final RoleClient roles;
    private final Runnable onExit;
    /** Guards the target and the report about it together: an answer about a previous target is never credited to the next. */
    private final Object lock = new Object();
    private final long intervalNs;
    private final Duration timeout;
    private final long staleNs;
    private final Thread thread;
    private volatile URI target;
    private volatile boolean running = true;
    private final WatchHold hold = new WatchHold();
    /** When the last report saying "exited" about {@link #target} arrived (System.nanoTime()), or 0. */
    private volatile long exitedReportNs;
    private volatile String exit;
    /** The last answer about {@link #target} said its shipper is fenced. */
    private volatile boolean shipperFenced;
    /** Counts {@link #fenceLifted} calls (under {@link #lock}): an answer asked for before one says nothing of the fence. */
    private long lifts;

    /**
     * @param onExit run on this reader's thread when a report says the postmaster exited, after {@link #exit()}
     *               says so too
     */
    public PostmasterReport(RoleClient roles, Duration interval, Runnable onExit) {
        this.roles = roles;
        this.onExit = onExit;
        this.intervalNs = interval.toNanos();
        this.timeout = LONG_POLL.plusMillis(Math.max(50, interval.toMillis() * 10));
        // an old report is no report: the shipper may have reconnected to a restarted primary since (its answer then
        // clears the report at once). A second, not less: a shipper often exits within ~100 ms of reporting (its
        // replication connection died with the postmaster), so the report is never read again, and detection and
        // fencing come after it (FailoverIT saw the report age out 15 ms before the fence looked at it)
        this.staleNs = Math.max(TimeUnit.SECONDS.toNanos(1), intervalNs * 20);
        this.thread = new Thread(this::run, "rdmarepl-postmaster-report");
        thread.setDaemon(true);
        thread.start();
    }

    /** The shipper admin endpoint of the current primary, or null to read none. */
    public void target(URI shipperAdmin) {
        boolean other;
        synchronized (lock) {
            other = shipperAdmin == null || !shipperAdmin.equals(target);
            if (other) {
                exitedReportNs = 0;
                exit = null;
                shipperFenced = false;
            }
            target = shipperAdmin;
        }
        if (other) {
            LockSupport.unpark(thread); // it may be waiting out a pause meant for the previous shipper
        }
    }

    /** Holds the reads of the shipper until {@link #resume}: none starts meanwhile; what was seen stands (and ages). */
    public void hold() {
        hold.hold();
    }

    /** Ends a {@link #hold}: the next one starts now. */
    public void resume() {
        hold.resume(thread);
    }

    /** The primary's shipper reported, recently, that the primary's postmaster exited. */
    public boolean postmasterExited() {
        long at = exitedReportNs;
        return at != 0 && System.nanoTime() - at < staleNs;
    }

    /**
     * The primary's shipper said, in its last answer, that it is fenced: it ships nothing (told to stop by a failover
     * that did not happen, or its lease ran out). Nothing known counts as not fenced.
     */
    public boolean shipperFenced() {
        return shipperFenced;
    }

    /**
     * The coordinator lifted the shipper's fence: what an answer asked for before said of the fence is stale (a long
     * poll is held up to {@link #LONG_POLL}, and one the fenced shipper answered is followed by a pause).
     */
    public void fenceLifted() {
        synchronized (lock) {
            lifts++;
            shipperFenced = false;
        }
        LockSupport.unpark(thread);
    }

    /** What the shipper said of the exit (e.g. "process 4711 exited (state Z)"), or null. */
    public String exit() {
        synchronized (lock) {
            return postmasterExited() ? exit : null;
        }
    }

    /**
     * Waits, up to a second, for a report saying the postmaster exited: for a primary whose port
     * already refuses connections while the shipper's word of the exit is still on its way.
     */
    public String awaitExit() {
        // a second at most: enough for a long poll in flight to come back; a partitioned primary's lease wait is longer
        long deadline = System.nanoTime() + Math.max(staleNs, TimeUnit.SECONDS.toNanos(1));
        String seen = exit();
        while (seen == null && running && target != null && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            seen = exit();
        }
        return seen;
    }

    private void run() {
        while (running) {
            if (hold.parkedWhileHeld()) {
                continue;
            }
            long start = System.nanoTime();
            URI shipper = target;
            boolean watching = shipper == null || read(shipper);
            // a held answer that said "not exited" is followed by the next request at once; anything else by a pause
            long sleep = (watching ? intervalNs : NOT_WATCHING_PAUSE.toNanos()) - (System.nanoTime() - start);
            if (sleep > 0) {
                LockSupport.parkNanos(sleep);
            }
        }
    }

    /** @return false when the shipper answered that it watches no postmaster */
    private boolean read(URI shipper) {
        long liftsBefore;
        synchronized (lock) {
            liftsBefore = lifts;
        }
        try {
            PrimaryAnswer answer = ControlJson.read(roles.get(shipper, ShipperRoutes.primary(LONG_POLL.toMillis()), timeout),
                    PrimaryAnswer.class);
            boolean news = false;
            synchronized (lock) {
                if (!shipper.equals(target)) {
                    return true; // retargeted meanwhile: this answer is about the old primary
                }
                shipperFenced = answer.reportsFenced() && lifts == liftsBefore;
                if (answer.reportsExit()) {
                    news = exitedReportNs == 0;
                    exit = answer.exit();
                    exitedReportNs = System.nanoTime();
                } else {
                    exitedReportNs = 0;
                }
            }
            if (news) {
                onExit.run(); // outside the lock: it reads this report back
            }
            return answer.watching();
        } catch (RoleException | IllegalArgumentException e) {
            // a shipper that does not answer, or not with a PrimaryAnswer, says nothing; the last "exited" ages out by itself,
            // and a fence it reported is no longer known (a resumption closes the shipper that held the long poll)
            shipperFenced = false;
            return true;
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
