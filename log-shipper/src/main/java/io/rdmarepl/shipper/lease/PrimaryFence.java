package io.rdmarepl.shipper.lease;

import io.rdmarepl.shipper.config.ShipperConfig;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One attempt to make the primary refuse writes, which the lease guard makes once the lease ran out, and again every
 * {@link LeaseGuard#RETRY_INTERVAL_MS} until one succeeds:
 * <ol>
 *   <li>{@code ALTER SYSTEM SET default_transaction_read_only = on} and {@code pg_reload_conf()};</li>
 *   <li>wait until this session sees it on: the postmaster re-read its configuration and signalled every backend,
 *       so every session started from then on is read-only;</li>
 *   <li>end every other client session: one that ran {@code SET default_transaction_read_only = off}, or was inside
 *       a transaction, would otherwise go on writing.</li>
 * </ol>
 * An attempt that takes longer than {@link #TIMEOUT_MS} all told (login, statements, the wait for the reload) fails;
 * the statements also carry a server-side {@code statement_timeout}. The user needs {@code ALTER SYSTEM} on
 * {@code default_transaction_read_only}, {@code EXECUTE} on {@code pg_reload_conf()} and membership in
 * {@code pg_signal_backend} (only a superuser ends a superuser's session).
 */
public final class PrimaryFence implements LeaseGuard.Fence {
    /** How long one attempt may take before it counts as failed (and is retried): part of the lease's terms. */
    public static final long TIMEOUT_MS = ShipperConfig.SELF_FENCE_TIMEOUT_MS;

    private final String jdbcUrl;
    private final String user;
    private final String password;

    public PrimaryFence(String jdbcUrl, String user, String password) {
        this.jdbcUrl = jdbcUrl;
        this.user = user;
        this.password = password;
    }

    /** Loads the JDBC driver now, so the first attempt does not pay for it when it counts. */
    public static void loadDriver() {
        try {
            Class.forName("org.postgresql.Driver");
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("the PostgreSQL JDBC driver is not on the class path: " + e.getMessage(), e);
        }
    }

    /**
     * Logs in once and asks nothing: warms the driver and tells early whether the primary answers this user.
     *
     * @throws SQLException naming why it did not
     */
    public void tryLogin() throws SQLException {
        try (Connection connection = connect()) {
            connection.isValid(1);
        }
    }

    /** @return the client sessions ended */
    @Override
    public int attempt() throws SQLException {
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS);
        try (Connection connection = connect();
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

    private Connection connect() throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", user);
        props.setProperty("password", password);
        props.setProperty("ApplicationName", "rdmarepl-lease-guard");
        props.setProperty("loginTimeout", "1");
        props.setProperty("connectTimeout", "1");
        props.setProperty("options", "-c statement_timeout=" + TIMEOUT_MS / 2);
        return DriverManager.getConnection(jdbcUrl, props);
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
            throw new SQLException("the attempt ran out of its " + TIMEOUT_MS + " ms before: " + next);
        }
        return (int) remaining;
    }
}
