package io.rdmarepl.client;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

import javax.sql.DataSource;

import org.slf4j.LoggerFactory;

/**
 * A {@link DataSource} that always hands out connections to the primary the failover coordinators name, so an
 * application follows failovers without a VIP or DNS change.
 * <pre>
 *   coordinators --long poll--> TopologyClient --newer topology--> PoolSwitch --> PrimaryPool (HikariCP) of pga
 *                                    ^                                        \-> retired pools, closing
 *                                    +--- refreshNow() on a failover error seen through a borrowed connection
 * </pre>
 * When the primary or epoch changes, a pool to the new primary replaces the old one atomically; the old pool's
 * connections are evicted (closed when returned, aborted after the grace period), and no connection to the
 * replaced primary is handed out again. While the coordinator names no primary (failover in progress),
 * {@link #getConnection()} waits up to the connection timeout.
 */
public final class FailoverDataSource implements DataSource, AutoCloseable {
    private static final org.slf4j.Logger LOG = LoggerFactory.getLogger(FailoverDataSource.class);
    /** sqlclient_unable_to_establish_sqlconnection: a failover error, so {@link #inTransaction} retries it. */
    private static final String NO_CONNECTION_STATE = "08001";

    private final FailoverDataSourceConfig config;
    private final FailoverCounters counters = new FailoverCounters();
    private final TopologyClient topology;
    private final PoolSwitch pools;
    private final RetryingTransaction retrying;

    public FailoverDataSource(final FailoverDataSourceConfig config) {
        this.config = config;
        this.topology = new TopologyClient(config.coordinatorUrls(), config.coordinatorConnectTimeout(),
            config.pollWait(), config.topologyMaxAge());
        this.pools = new PoolSwitch(config, this::onFailoverError, counters);
        this.retrying = new RetryingTransaction(this, pools, counters, topology::refreshNow);
        topology.addListener(pools);
        LOG.info("failover data source starting: {}", config);
        topology.start();
    }

    /**
     * @return true if the error says the server is not the primary any more or cannot be reached: SQLState 25006
     * (read-only transaction: the server was fenced), 57P01/57P02/57P03 (terminated, shutting down, not accepting
     * connections) or class 08 (connection errors), in the error or one it wraps. Worth retrying on the next primary.
     */
    public static boolean isFailoverError(final SQLException error) {
        return FailoverErrors.isFailoverError(error);
    }

    /**
     * A connection to the current primary: waits up to the connection timeout while no primary is known or the
     * primary cannot be reached.
     *
     * @throws SQLException with SQLState 08001 naming the coordinators and the primary tried, on timeout
     */
    @Override
    public Connection getConnection() throws SQLException {
        return connectionBefore(System.nanoTime() + config.connectionTimeout().toNanos());
    }

    /**
     * Runs {@code work} in a transaction on a fresh connection and commits; on a failover error (see
     * {@link #isFailoverError}) it rolls back, asks the coordinator for the new primary at once and runs the work
     * again, until {@code budget} is spent. Other errors are thrown at once.
     * <p>
     * At-least-once: an attempt whose connection breaks during commit may have committed on the old primary
     * before it failed, and is run again. Make the work idempotent (e.g. {@code INSERT ... ON CONFLICT DO NOTHING}
     * keyed by a client-chosen id) or accept that it may take effect twice. A returned result means the work
     * committed on the primary of that attempt.
     *
     * @throws SQLException the work's own error, or after the budget, the last failover error wrapped in one that
     *                      says how many attempts were made (same SQLState)
     */
    public <T> T inTransaction(final SqlWork<T> work, final Duration budget) throws SQLException {
        return retrying.run(work, budget);
    }

    /**
     * @return counters and the topology followed, for metrics and status pages.
     */
    public FailoverStatus status() {
        final Optional<Topology> known = topology.current();
        final Member primary = known.map(Topology::primary).orElse(null);
        return new FailoverStatus(
            known.map(Topology::version).orElse(-1L),
            known.map(Topology::epoch).orElse(-1L),
            known.map(Topology::phase).orElse("UNKNOWN"),
            primary == null ? null : primary.name(),
            primary == null ? null : primary.jdbcUrl(),
            counters.failoversSeen(),
            counters.failedAttempts(),
            topology.describeCoordinators());
    }

    /**
     * @return the newest topology received, none before the first answer.
     */
    public Optional<Topology> topology() {
        return topology.current();
    }

    /**
     * Be told of newer topologies; called after this data source has switched its pool.
     */
    public void addTopologyListener(final TopologyListener listener) {
        topology.addListener(listener);
    }

    public FailoverDataSourceConfig config() {
        return config;
    }

    Connection connectionBefore(final long deadlineNs) throws SQLException {
        PrimaryPool tried = null;
        SQLException lastFailure = null;
        while (true) {
            final PrimaryPool pool = pools.awaitPool(deadlineNs);
            if (pool == null) {
                throw noPrimary(tried, lastFailure);
            }
            if (!awaitFreshTopology(deadlineNs)) {
                throw staleTopology();
            }
            tried = pool;
            try {
                final Connection connection = pool.borrow();
                if (pools.isCurrent(pool)) {
                    return connection;
                }
                // the primary was replaced while we borrowed: never hand out a connection to a replaced primary
                pool.discard(connection);
                continue;
            } catch (final SQLException ex) {
                lastFailure = ex;
                if (pools.isCurrent(pool) && isFailoverError(ex)) {
                    topology.refreshNow();
                }
            }
            if (System.nanoTime() - deadlineNs >= 0) {
                throw unreachable(pool, lastFailure);
            }
        }
    }

    /**
     * A topology no coordinator holding the cluster's state confirmed within {@code topologyMaxAge} may name a
     * primary that was replaced meanwhile: wait for a confirmation rather than hand out a connection to it.
     */
    private boolean awaitFreshTopology(final long deadlineNs) throws SQLException {
        try {
            return topology.awaitFresh(deadlineNs);
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new SQLTransientConnectionException("interrupted while waiting for a fresh topology",
                NO_CONNECTION_STATE, ex);
        }
    }

    private SQLException staleTopology() {
        return new SQLTransientConnectionException("no primary known within " + config.connectionTimeout().toMillis() +
            " ms: " + topology.describeFreshness() + ", no coordinator holding the cluster's state confirmed it since (" +
            topology.describeCoordinators() + "); the primary it names may have been replaced",
            NO_CONNECTION_STATE);
    }

    private void onFailoverError(final PrimaryPool pool) {
        pool.evictAll();
        topology.refreshNow();
    }

    private SQLException noPrimary(final PrimaryPool tried, final SQLException lastFailure) {
        final String known = topology.current()
            .map((t) -> "latest topology " + t.describe())
            .orElse("no topology received yet");
        final String openFailure = pools.openFailure();
        final String triedText = (openFailure == null ? "" : "; " + openFailure) +
            (tried == null ? "" : "; last tried " + tried.describe() +
                (lastFailure == null ? "" : ": " + lastFailure.getMessage()));
        return new SQLTransientConnectionException("no primary known within " + config.connectionTimeout().toMillis() +
            " ms: " + known + " (" + topology.describeCoordinators() + ")" + triedText,
            NO_CONNECTION_STATE, lastFailure);
    }

    private SQLException unreachable(final PrimaryPool pool, final SQLException lastFailure) {
        final Throwable cause = lastFailure.getCause();
        return new SQLTransientConnectionException("no connection to " + pool.describe() + " within " +
            config.connectionTimeout().toMillis() + " ms: " + lastFailure.getMessage() +
            (cause == null ? "" : " (" + cause.getMessage() + ")") +
            "; topology from " + topology.describeCoordinators(),
            lastFailure.getSQLState() == null ? NO_CONNECTION_STATE : lastFailure.getSQLState(), lastFailure);
    }

    /**
     * Not supported: credentials belong to the configuration, one per pool.
     */
    @Override
    public Connection getConnection(final String username, final String password) throws SQLException {
        throw new SQLFeatureNotSupportedException(
            "a failover data source connects as its configured user (" + config.user() + ") only");
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(final PrintWriter out) throws SQLException {
        throw new SQLFeatureNotSupportedException("a failover data source logs through SLF4J");
    }

    @Override
    public void setLoginTimeout(final int seconds) throws SQLException {
        throw new SQLFeatureNotSupportedException("set connectionTimeout in FailoverDataSourceConfig instead");
    }

    @Override
    public int getLoginTimeout() {
        return (int) TimeUnit.MILLISECONDS.toSeconds(config.connectionTimeout().toMillis());
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("a failover data source logs through SLF4J");
    }

    @Override
    public <T> T unwrap(final Class<T> type) throws SQLException {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        throw new SQLException("a failover data source is not a wrapper for " + type.getName());
    }

    @Override
    public boolean isWrapperFor(final Class<?> type) {
        return type.isInstance(this);
    }

    /**
     * Stop following the topology and close every pool; connections still borrowed are aborted.
     */
    @Override
    public void close() {
        topology.close();
        pools.close();
    }
}
