package io.rdmarepl.client;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import java.util.function.Consumer;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;

/**
 * The HikariCP pool of one primary in one epoch. A new primary (or a new epoch of the same one) gets a new pool,
 * so no connection ever outlives the topology it was opened for.
 */
final class PrimaryPool implements AutoCloseable {
    /**
     * HikariCP waits this long per borrow; {@link FailoverDataSource} borrows again until its own deadline, looking
     * for a newer primary between tries, so a caller never waits a full timeout on a primary that was replaced.
     * 250 ms is the least HikariCP accepts.
     */
    static final long BORROW_SLICE_MS = 250;

    private final Member primary;
    private final long epoch;
    private final HikariDataSource hikari;

    /**
     * @param onFailoverError told, with this pool, when a borrowed connection fails with a failover error
     */
    PrimaryPool(final Member primary, final long epoch, final FailoverDataSourceConfig config,
        final Consumer<PrimaryPool> onFailoverError) {
        this.primary = primary;
        this.epoch = epoch;
        this.hikari = new HikariDataSource(hikariConfig(primary, epoch, config,
            new FailoverExceptionOverride(() -> onFailoverError.accept(this))));
    }

    private static HikariConfig hikariConfig(final Member primary, final long epoch,
        final FailoverDataSourceConfig config, final FailoverExceptionOverride override) {
        final HikariConfig hikari = new HikariConfig();
        hikari.setPoolName(config.applicationName() + "-" + primary.name() + "-epoch" + epoch);
        hikari.setJdbcUrl(primary.jdbcUrl());
        hikari.setUsername(config.user());
        if (config.password() != null) {
            hikari.setPassword(config.password());
        }
        hikari.setDataSourceProperties(driverProperties(config));
        hikari.setMaximumPoolSize(config.poolSize());
        hikari.setMinimumIdle(config.poolSize());
        hikari.setConnectionTimeout(BORROW_SLICE_MS);
        // HikariCP would lower it to connectionTimeout with a WARN: say it ourselves
        hikari.setValidationTimeout(BORROW_SLICE_MS);
        // open connections in the background: the new primary may still be starting when the topology names it
        hikari.setInitializationFailTimeout(-1);
        hikari.setExceptionOverride(override);
        hikari.setRegisterMbeans(false);
        return hikari;
    }

    /**
     * The caller's properties win; login and connect timeouts default to the connection timeout, because
     * HikariCP would otherwise set the JVM-wide DriverManager login timeout to its own (one slice, 1 s).
     */
    private static Properties driverProperties(final FailoverDataSourceConfig config) {
        final Properties properties = config.databaseProperties();
        final String seconds = Long.toString(Math.max(1, (config.connectionTimeout().toMillis() + 999) / 1000));
        properties.putIfAbsent("ApplicationName", config.applicationName());
        properties.putIfAbsent("loginTimeout", seconds);
        properties.putIfAbsent("connectTimeout", seconds);
        return properties;
    }

    Member primary() {
        return primary;
    }

    long epoch() {
        return epoch;
    }

    boolean serves(final long otherEpoch, final Member otherPrimary) {
        return epoch == otherEpoch && primary.sameServer(otherPrimary);
    }

    /**
     * @throws SQLException after {@link #BORROW_SLICE_MS} without a connection; its cause is the last failure to
     *                      connect, if any
     */
    Connection borrow() throws SQLException {
        return hikari.getConnection();
    }

    /**
     * Close a borrowed connection instead of returning it to the pool.
     */
    void discard(final Connection connection) {
        hikari.evictConnection(connection);
    }

    /**
     * Close idle connections now and borrowed ones when they are returned.
     */
    void evictAll() {
        final HikariPoolMXBean pool = hikari.getHikariPoolMXBean();
        if (pool != null && !hikari.isClosed()) {
            pool.softEvictConnections();
        }
    }

    /**
     * Stop opening connections: this primary was replaced. Idle connections close now, borrowed ones when they are
     * returned or at {@link #close()}.
     */
    void retire() {
        // HikariCP reads minimumIdle on every fill: without this it would reopen what the eviction closes
        hikari.getHikariConfigMXBean().setMinimumIdle(0);
        evictAll();
    }

    int borrowedConnections() {
        final HikariPoolMXBean pool = hikari.getHikariPoolMXBean();
        return pool == null || hikari.isClosed() ? 0 : pool.getActiveConnections();
    }

    /**
     * Close the pool; connections still borrowed are aborted.
     */
    @Override
    public void close() {
        hikari.close();
    }

    /**
     * @return e.g. "primary pga (jdbc:postgresql://10.0.0.1:5432/app) of epoch 3".
     */
    String describe() {
        return "primary " + primary.name() + " (" + primary.jdbcUrl() + ") of epoch " + epoch;
    }
}
