package io.rdmarepl.shipper.liveness;

import io.rdmarepl.control.PostmasterStatus;
import io.rdmarepl.shipper.capture.pgoutput.PrimaryEndpoint;
import io.rdmarepl.shipper.capture.pgoutput.PrimaryPing;
import io.rdmarepl.shipper.capture.pgoutput.ReplicationEndpoint;
import io.rdmarepl.shipper.capture.pgoutput.ReplicationException;
import io.rdmarepl.shipper.config.ShipperConfig;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Whether the primary answers, checked every heartbeat interval on a kept session of its own. Heartbeats go out
 * only while it does, so the standbys (and the coordinator reading them) see them stop within milliseconds of the
 * primary's death; Debezium itself notices only when its engine has stopped, a few hundred milliseconds later. A
 * broken session or an error marks the primary dead at once; the next answer revives it.
 *
 * <p>The check is a Sync on that session ({@link PrimaryPing}): sent at one tick, its answer collected at the next,
 * so an idle shipper pays one wake-up per interval for it, not a wait for the round trip too, and no SQL. An
 * answer still missing after the larger of 25 ms and five intervals makes the primary dead (a hung primary must
 * look dead too).
 *
 * <p>When the primary runs on this host, its postmaster process is watched too ({@link PostmasterWatch}), on the
 * same tick: the moment it exits the primary is dead, though its backends may answer for tens of milliseconds
 * more. The watch then sees a crash, so the ping goes every other tick only: a hang is judged by how long the
 * ping in flight waits, which that does not change, and each ping costs the primary a backend wake-up too. The thread
 * runs under the real-time scheduler ({@link RealtimePriority}): a dying primary's processes must not hold up the
 * tick that sees the death. The tick never waits on the network, so the watch is never held up by a slow answer;
 * {@link #alive()} is asked on the ship threads, which must not do I/O.
 */
public final class PrimaryLiveness implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(PrimaryLiveness.class);
    /** How long an answer that began to arrive may take to complete before the session counts as broken. */
    private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(5);
    /** The session's {@code application_name}, what {@code pg_stat_activity} shows for it. */
    static final String APPLICATION_NAME = "rdmarepl-liveness";
    private final ReplicationEndpoint endpoint;
    private final long intervalNs;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean alive = true;
    /** When the unanswered Sync was sent; 0 while none is. */
    private volatile long unansweredSinceNs;
    private final long overdueNs;
    /** {@code liveness.realtime.priority}: this thread's, taken as it starts ({@link RealtimePriority}). */
    private final int realtimePriority;
    private PrimaryPing ping;
    private volatile PostmasterWatch postmaster;
    private volatile String postmasterWhyNot = "not looked for yet";
    /** Notified when the watch sees the postmaster exit, and on close: wakes {@link #awaitPostmasterExit}. */
    private final Object exitSignal = new Object();

    public PrimaryLiveness(ShipperConfig config, Duration interval) {
        this.endpoint = PrimaryEndpoint.of(config);
        this.intervalNs = interval.toNanos();
        this.overdueNs = Math.max(TimeUnit.MILLISECONDS.toNanos(25), intervalNs * 5);
        this.realtimePriority = config.livenessRealtimePriority();
        this.thread = new Thread(this::run, "rdmarepl-primary-liveness");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * The session is up, and the Sync in flight (if any) has not waited longer than the larger of 25 ms and five
     * intervals: a slow answer only pauses the heartbeats (a hung primary must look dead too), a refused or broken
     * session stops them until the primary answers again.
     */
    public boolean alive() {
        long since = unansweredSinceNs;
        return alive && (since == 0 || System.nanoTime() - since < overdueNs) && !postmasterExited();
    }

    /**
     * True once the watched postmaster has exited (a fact read from /proc, not a missed answer): the coordinator
     * takes it as the primary's death without waiting for the heartbeat silence that rules out a stall.
     */
    public boolean postmasterExited() {
        PostmasterWatch watch = postmaster;
        return watch != null && watch.exited();
    }

    /**
     * Waits until the watched postmaster exits, at most {@code wait}; returns at once when it has exited already or
     * none is watched. The coordinator holds {@code GET /primary?wait_ms=...} on this: it hears of the exit the
     * moment the watch sees it, instead of polling for it every few milliseconds. A caller that waits gets a look
     * now, not at the watch's next tick (up to a heartbeat interval away): a shipper whose replication connection died
     * with the postmaster asks before it exits, and must not miss an exit the watch has not looked for yet.
     */
    public void awaitPostmasterExit(Duration wait) throws InterruptedException {
        long deadlineNs = System.nanoTime() + wait.toNanos();
        if (!wait.isZero() && !postmasterExited()) {
            LockSupport.unpark(thread);
        }
        synchronized (exitSignal) {
            for (long leftNs = wait.toNanos(); leftNs > 0 && running && postmaster != null && !postmasterExited();
                 leftNs = deadlineNs - System.nanoTime()) {
                TimeUnit.NANOSECONDS.timedWait(exitSignal, leftNs);
            }
        }
    }

    /** For /status and /primary: the watched postmaster's pid, whether it exited and how, or why none is watched. */
    public PostmasterStatus postmasterStatus() {
        PostmasterWatch watch = postmaster;
        if (watch == null) {
            return new PostmasterStatus(null, false, "none: " + postmasterWhyNot, null);
        }
        boolean exited = watch.exited();
        return new PostmasterStatus(watch.pid(), exited, exited ? PostmasterStatus.EXITED_PREFIX + watch.exit() : "watching", watch.exit());
    }

    private void run() {
        RealtimePriority.raiseOrWarn(realtimePriority);
        long ticks = 0;
        while (running) {
            long start = System.nanoTime();
            watchTick();
            if (ping == null || postmaster == null || (ticks++ & 1) == 0) {
                pingTick(start);
            }
            long sleep = intervalNs - (System.nanoTime() - start);
            if (sleep > 0) {
                LockSupport.parkNanos(sleep);
            }
        }
        closePing();
    }

    /** One pread of the postmaster's {@code /proc} entry: a microsecond, so every tick can afford it first. */
    private void watchTick() {
        PostmasterWatch watch = postmaster;
        if (watch != null && !watch.exited() && watch.check()) {
            signalExitWaiters();
            LOG.warn("the primary's postmaster exited ({}): heartbeats stop", watch.exit());
        }
    }

    private void pingTick(long nowNs) {
        try {
            if (ping == null) {
                ping = PrimaryPing.open(endpoint, APPLICATION_NAME, ANSWER_TIMEOUT);
                watchPostmaster(ping);
            }
            if (ping.collectAndSend(nowNs)) {
                if (!alive) {
                    LOG.info("primary answers again: heartbeats resume");
                }
                alive = true;
            }
            unansweredSinceNs = ping.inFlightSinceNs();
        } catch (ReplicationException e) {
            if (alive) {
                LOG.warn("primary stopped answering ({}): heartbeats stop", e.getMessage());
            }
            alive = false;
            unansweredSinceNs = 0;
            closePing();
        }
    }

    private void signalExitWaiters() {
        synchronized (exitSignal) {
            exitSignal.notifyAll();
        }
    }

    private void watchPostmaster(PrimaryPing fresh) throws ReplicationException {
        PostmasterWatch.Found found = PostmasterWatch.find(fresh.backendPid(), fresh.postmasterStart());
        PostmasterWatch previous = postmaster;
        if (found.watch() != null && (previous == null || previous.pid() != found.watch().pid())) {
            LOG.info("watching the primary's postmaster (pid {}): its exit stops the heartbeats at once", found.watch().pid());
        } else if (found.watch() == null && !found.whyNot().equals(postmasterWhyNot)) {
            LOG.info("not watching the primary's postmaster: {}; heartbeats stop when it stops answering", found.whyNot());
        }
        postmaster = found.watch();
        postmasterWhyNot = found.whyNot();
    }

    private void closePing() {
        if (ping != null) {
            ping.close();
            ping = null;
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        signalExitWaiters();
    }
}
