package io.rdmarepl.shipper;

import io.rdmarepl.shipper.config.ShipperConfig;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the primary refuse writes once the shipper's lease ran out, retrying until it did. One attempt:
 * <ol>
 *   <li>{@code ALTER SYSTEM SET default_transaction_read_only = on} and {@code pg_reload_conf()};</li>
 *   <li>wait until this session sees it on: the postmaster re-read its configuration and signalled every backend,
 *       so every session started from then on is read-only;</li>
 *   <li>end every other client session: one that ran {@code SET default_transaction_read_only = off}, or was inside
 *       a transaction, would otherwise go on writing.</li>
 * </ol>
 * An attempt that takes longer than {@link ShipperConfig#SELF_FENCE_TIMEOUT_MS} all told (login, statements, the
 * wait for the reload) fails; the statements also carry a server-side {@code statement_timeout}. A failed attempt is
 * retried every {@link #RETRY_INTERVAL_MS} until one succeeds or the shipper closes; the first failure and every new
 * reason are logged. The user needs {@code ALTER SYSTEM} on {@code default_transaction_read_only}, {@code EXECUTE} on
 * {@code pg_reload_conf()} and membership in {@code pg_signal_backend} (only a superuser ends a superuser's session).
 */
final class SelfFence implements AutoCloseable {
    static final long RETRY_INTERVAL_MS = 200;
    private static final Logger LOG = LoggerFactory.getLogger(SelfFence.class);

    private final ShipperConfig config;
    private Thread thread;
    private volatile boolean closed;
    private volatile String state = "not needed";
    private volatile int attempts;
    private volatile String lastError;

    SelfFence(ShipperConfig config) {
        this.config = config;
    }

    /** Starts fencing the primary on a thread of its own, once; returns at once. */
    synchronized void start() {
        if (thread != null || closed) {
            return;
        }
        state = "fencing";
        thread = new Thread(this::run, "rdmarepl-self-fence");
        thread.setDaemon(true);
        thread.start();
    }

    synchronized boolean started() {
        return thread != null;
    }

    /** {@code state} (not needed, fencing, retrying, done), {@code attempts}, {@code last_error}. */
    Map<String, Object> status() {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("state", state);
        status.put("attempts", attempts);
        status.put("last_error", lastError);
        return status;
    }

    private void run() {
        while (!closed) {
            attempts++;
            try {
                int ended = attempt();
                state = "done";
                LOG.warn("self-fenced: the primary is read-only now and {} client session(s) were ended (attempt {})", ended, attempts);
                return;
            } catch (SQLException e) {
                String why = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
                if (!why.equals(lastError)) {
                    LOG.warn("self-fence attempt {} failed, the primary may still take writes: {}; retrying every {} ms", attempts, why,
                            RETRY_INTERVAL_MS);
                }
                lastError = why;
                state = "retrying";
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(RETRY_INTERVAL_MS));
        }
    }

    /** @return the client sessions ended */
    private int attempt() throws SQLException {
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ShipperConfig.SELF_FENCE_TIMEOUT_MS);
        Properties props = new Properties();
        props.setProperty("user", config.databaseUser());
        props.setProperty("password", config.databasePassword());
        props.setProperty("ApplicationName", "rdmarepl-shipper-self-fence");
        props.setProperty("loginTimeout", "1");
        props.setProperty("connectTimeout", "1");
        props.setProperty("options", "-c statement_timeout=" + ShipperConfig.SELF_FENCE_TIMEOUT_MS / 2);
        try (Connection connection = DriverManager.getConnection(config.jdbcUrl(), props);
             Statement statement = connection.createStatement()) {
            execute(connection, statement, deadlineNs, "ALTER SYSTEM SET default_transaction_read_only = on");
            execute(connection, statement, deadlineNs, "SELECT pg_reload_conf()");
            while (!"on".equals(query(connection, statement, deadlineNs, "SELECT current_setting('default_transaction_read_only')"))) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            }
            return Integer.parseInt(query(connection, statement, deadlineNs, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    + "WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"));
        }
    }

    private static void execute(Connection connection, Statement statement, long deadlineNs, String sql) throws SQLException {
        connection.setNetworkTimeout(Runnable::run, remainingMs(deadlineNs, sql));
        statement.execute(sql);
    }

    private static String query(Connection connection, Statement statement, long deadlineNs, String sql) throws SQLException {
        connection.setNetworkTimeout(Runnable::run, remainingMs(deadlineNs, sql));
        try (ResultSet rs = statement.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static int remainingMs(long deadlineNs, String next) throws SQLException {
        long remaining = TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime());
        if (remaining <= 0) {
            throw new SQLException("the attempt ran out of its " + ShipperConfig.SELF_FENCE_TIMEOUT_MS + " ms before: " + next);
        }
        return (int) remaining;
    }

    /** Stops retrying (the shipper is closed: retired, activated anew, or the process ends). */
    @Override
    public void close() {
        closed = true;
    }
}
