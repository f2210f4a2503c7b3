package io.rdmarepl.coordinator.detect;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.concurrent.locks.LockSupport;

/**
 * Probes the primary over JDBC on its own thread: {@code SELECT pg_current_wal_lsn()} every interval on a kept
 * connection, reconnecting after a failure. The decision loop never waits for it: it reads {@link #view}, where a
 * probe still unanswered after the timeout already counts as failed. While the primary's shipper reports its
 * postmaster exited ({@code postmasterExited}) each probe opens a new connection instead, and the report's news
 * ({@link #suspect}) starts one at once. A failed probe runs {@code onFailure} (the coordinator decides at once
 * instead of at its next cycle).
 */
public final class PrimaryProbe implements AutoCloseable {
    private final Properties credentials;
    private final BooleanSupplier postmasterExited;
    private final Runnable onFailure;
    private final long intervalNs;
    private final long timeoutNs;
    private final Thread thread;
    private volatile String jdbcUrl;
    private volatile boolean running = true;
    private final WatchHold hold = new WatchHold();
    private volatile long attemptStartNs;
    private volatile long lastSuccessNs;
    /** Whether the current target answered yet: before, there is no last answer to tell a cut from a death by. */
    private volatile boolean answered;
    private volatile long firstFailureNs;
    private volatile int consecutiveFailures;
    private volatile String lastError;
    private volatile String lastWalLsn;
    /**
     * The start of the attempt {@link #suspect} aborted before it was overdue, or 0: that attempt's failure is the
     * coordinator's doing, not the server's, and does not count (an overdue one had failed already, and does).
     */
    private volatile long abortedEarlyNs;
    /** Written by the probe thread only; read by {@link #suspect} to abort a probe hung on it. */
    private volatile Connection connection;
    private String connectedUrl;

    /**
     * @param postmasterExited whether the primary's shipper reports, now, that its postmaster exited (read before
     *                         every probe)
     * @param onFailure        run on the probe's thread after each failed probe is counted
     */
    public PrimaryProbe(String jdbcUrl, String user, String password, Duration interval, Duration timeout,
                        BooleanSupplier postmasterExited, Runnable onFailure) {
        this.jdbcUrl = jdbcUrl;
        this.postmasterExited = postmasterExited;
        this.onFailure = onFailure;
        this.credentials = new Properties();
        credentials.setProperty("user", user);
        credentials.setProperty("password", password);
        credentials.setProperty("connectTimeout", "1");
        credentials.setProperty("ApplicationName", "rdmarepl-coordinator-probe");
        this.intervalNs = interval.toNanos();
        this.timeoutNs = timeout.toNanos();
        this.lastSuccessNs = System.nanoTime();
        this.thread = new Thread(this::run, "rdmarepl-probe");
        thread.setDaemon(true);
        thread.start();
    }

    /** Probe another server from now on (the primary changed); its history starts afresh. */
    public void retarget(String url) {
        if (!url.equals(jdbcUrl)) {
            jdbcUrl = url;
            consecutiveFailures = 0;
            lastSuccessNs = System.nanoTime();
            answered = false;
        }
    }

    /**
     * The news that the primary's shipper saw its postmaster exit (from then on {@code postmasterExited} says so,
     * and every probe opens a new connection: the backend of a kept connection was seen to go on answering for 50 ms
     * after its postmaster started to exit, then to hang, where a new connection fails as soon as the postmaster is
     * gone). A probe hung on the kept connection now is aborted, so the next one starts at once instead of after the
     * network timeout; aborted before its timeout, it does not count as failed (the next probe decides: the failed
     * probe that fails the primary over must say that no server answers). A probe waiting for its turn starts at
     * once. Not on every doubt: a new connection every few milliseconds costs the primary a backend each time.
     */
    public void suspect() {
        Connection kept = connection;
        long started = attemptStartNs;
        if (kept != null && started != 0) {
            if (System.nanoTime() - started <= timeoutNs) {
                abortedEarlyNs = started;
            }
            try {
                kept.abort(Runnable::run);
            } catch (SQLException | RuntimeException e) {
                // it is broken already: the probe thread's attempt fails either way
            }
        }
        LockSupport.unpark(thread);
    }

    /** Holds the probe until {@link #resume}: none starts meanwhile; what was seen stands (and ages). */
    public void hold() {
        hold.hold();
    }

    /** Ends a {@link #hold}: the next one starts now. */
    public void resume() {
        hold.resume(thread);
    }

    /** What the probe knows now. */
    public ProbeView view() {
        long now = System.nanoTime();
        long started = attemptStartNs;
        boolean overdue = started != 0 && now - started > timeoutNs;
        int failures = consecutiveFailures + (overdue ? 1 : 0);
        String error = overdue ? "no answer within " + TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms" : lastError;
        long failingSinceNs = failures == 0 ? 0 : consecutiveFailures == 0 ? started : firstFailureNs;
        return new ProbeView(jdbcUrl, failures, failures == 0 ? null : error,
                failures == 0 ? 0 : TimeUnit.NANOSECONDS.toMillis(now - failingSinceNs),
                answered ? TimeUnit.NANOSECONDS.toMillis(now - lastSuccessNs) : Long.MAX_VALUE, lastWalLsn);
    }

    private void run() {
        while (running) {
            if (hold.parkedWhileHeld()) {
                continue;
            }
            long start = System.nanoTime();
            attemptStartNs = start;
            if (postmasterExited.getAsBoolean()) {
                closeConnection();
            }
            try {
                String lsn = probeOnce();
                attemptStartNs = 0;
                lastWalLsn = lsn;
                lastSuccessNs = System.nanoTime();
                answered = true;
                consecutiveFailures = 0;
                lastError = null;
            } catch (SQLException e) {
                attemptStartNs = 0;
                if (abortedEarlyNs == start) {
                    abortedEarlyNs = 0;
                    closeConnection();
                    continue; // the next attempt, on a new connection, says whether the server answers
                }
                if (consecutiveFailures == 0) {
                    firstFailureNs = start;
                }
                lastError = e.getMessage();
                consecutiveFailures++;
                closeConnection();
                onFailure.run();
            }
            long sleep = intervalNs - (System.nanoTime() - start);
            if (sleep > 0) {
                LockSupport.parkNanos(sleep);
            }
        }
        closeConnection();
    }

    private String probeOnce() throws SQLException {
        String url = jdbcUrl;
        if (connection == null || !url.equals(connectedUrl)) {
            closeConnection();
            connection = DriverManager.getConnection(url, credentials);
            connectedUrl = url;
            Executor direct = Runnable::run;
            connection.setNetworkTimeout(direct, (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNs) * 10));
        }
        try (Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("SELECT CASE WHEN pg_is_in_recovery() THEN NULL ELSE pg_current_wal_lsn()::text END")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private void closeConnection() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // the connection is broken already: that is why it is being closed
            }
            connection = null;
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
