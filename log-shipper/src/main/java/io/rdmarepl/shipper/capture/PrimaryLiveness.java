package io.rdmarepl.shipper.capture;

import io.rdmarepl.control.PostmasterStatus;
import io.rdmarepl.shipper.config.ShipperConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Whether the primary answers, checked every heartbeat interval with {@code SELECT 1} on a kept connection.
 * Heartbeats go out only while it does, so the standbys (and the coordinator reading them) see them stop
 * within milliseconds of the primary's death; Debezium itself notices only when its engine has stopped, a
 * few hundred milliseconds later. A failed check marks the primary dead at once; the next answer revives it.
 *
 * <p>When the primary runs on this host, its postmaster process is watched too ({@link PostmasterWatch}): the
 * moment it exits the primary is dead, though its backends may answer {@code SELECT 1} for tens of milliseconds more.
 * The watch has its own thread, reading {@code /proc} every interval: the {@code SELECT 1} thread may be held by
 * such a backend just then, and {@link #alive()} is asked on the ship threads, which must not do I/O.
 */
public final class PrimaryLiveness implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(PrimaryLiveness.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private final ShipperConfig config;
    private final long intervalNs;
    private final Thread thread;
    private final Thread watchThread;
    private volatile boolean running = true;
    private volatile boolean alive = true;
    private volatile long attemptStartNs;
    private final long overdueNs;
    private Connection connection;
    /** Prepared once per connection: 200 checks a second at the default interval, each a round trip and no parse. */
    private PreparedStatement selectOne;
    private volatile PostmasterWatch postmaster;
    private volatile String postmasterWhyNot = "not looked for yet";
    /** Notified when the watch sees the postmaster exit, and on close: wakes {@link #awaitPostmasterExit}. */
    private final Object exitSignal = new Object();

    public PrimaryLiveness(ShipperConfig config, Duration interval) {
        this.config = config;
        this.intervalNs = interval.toNanos();
        this.overdueNs = Math.max(TimeUnit.MILLISECONDS.toNanos(25), intervalNs * 5);
        this.thread = new Thread(this::run, "rdmarepl-primary-liveness");
        thread.setDaemon(true);
        thread.start();
        this.watchThread = new Thread(this::watch, "rdmarepl-postmaster-watch");
        watchThread.setDaemon(true);
        watchThread.start();
    }

    /**
     * The last check answered, and the one under way (if any) has not waited longer than the larger of 25 ms and
     * five intervals: a slow answer only pauses the heartbeats (a hung primary must look dead too), a refused or
     * broken connection stops them until the primary answers again.
     */
    public boolean alive() {
        long started = attemptStartNs;
        return alive && (started == 0 || System.nanoTime() - started < overdueNs) && !postmasterExited();
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
     * moment the watch sees it, instead of polling for it every few milliseconds.
     */
    public void awaitPostmasterExit(Duration wait) throws InterruptedException {
        long deadlineNs = System.nanoTime() + wait.toNanos();
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
        while (running) {
            long start = System.nanoTime();
            attemptStartNs = start;
            try {
                if (connection == null) {
                    connection = PrimaryPreflight.connect(config);
                    // generous: a stall must not break the connection, only a dead or unreachable primary
                    connection.setNetworkTimeout(Runnable::run, (int) TIMEOUT.toMillis());
                    watchPostmaster(connection);
                    selectOne = connection.prepareStatement("SELECT 1");
                }
                selectOne.execute();
                if (!alive) {
                    LOG.info("primary answers again: heartbeats resume");
                }
                alive = true;
            } catch (SQLException e) {
                if (alive) {
                    LOG.warn("primary stopped answering ({}): heartbeats stop", e.getMessage());
                }
                alive = false;
                closeConnection();
            } finally {
                attemptStartNs = 0;
            }
            long sleep = intervalNs - (System.nanoTime() - start);
            if (sleep > 0) {
                LockSupport.parkNanos(sleep);
            }
        }
        closeConnection();
    }

    private void watch() {
        while (running) {
            long start = System.nanoTime();
            PostmasterWatch watch = postmaster;
            if (watch != null && !watch.exited() && watch.check()) {
                signalExitWaiters();
                LOG.warn("the primary's postmaster exited ({}): heartbeats stop", watch.exit());
            }
            long sleep = intervalNs - (System.nanoTime() - start);
            if (sleep > 0) {
                LockSupport.parkNanos(sleep);
            }
        }
    }

    private void signalExitWaiters() {
        synchronized (exitSignal) {
            exitSignal.notifyAll();
        }
    }

    private void watchPostmaster(Connection fresh) throws SQLException {
        PostmasterWatch.Found found = PostmasterWatch.find(fresh);
        PostmasterWatch previous = postmaster;
        if (found.watch() != null && (previous == null || previous.pid() != found.watch().pid())) {
            LOG.info("watching the primary's postmaster (pid {}): its exit stops the heartbeats at once", found.watch().pid());
        } else if (found.watch() == null && !found.whyNot().equals(postmasterWhyNot)) {
            LOG.info("not watching the primary's postmaster: {}; heartbeats stop when it stops answering", found.whyNot());
        }
        postmaster = found.watch();
        postmasterWhyNot = found.whyNot();
    }

    private void closeConnection() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // already broken: that is why it is closed
            }
            connection = null;
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        watchThread.interrupt();
        signalExitWaiters();
    }
}
