package io.rdmarepl.client;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@link SqlWork} in a transaction on a fresh connection and, when an attempt fails with a failover error,
 * again on whichever server is primary then, until the budget is spent. See
 * {@link FailoverDataSource#inTransaction(SqlWork, Duration)} for what callers must accept.
 */
final class RetryingTransaction {
    /**
     * Between attempts on the same primary: the first retry comes quickly, later ones leave the coordinator time to
     * promote. A change of primary ends the pause at once.
     */
    private static final Duration RETRY_MIN = Duration.ofMillis(5);
    private static final Duration RETRY_MAX = Duration.ofMillis(200);

    private static final Logger LOG = LoggerFactory.getLogger(RetryingTransaction.class);

    private final FailoverDataSource dataSource;
    private final PoolSwitch pools;
    private final FailoverCounters counters;
    private final Runnable refreshTopology;

    RetryingTransaction(final FailoverDataSource dataSource, final PoolSwitch pools, final FailoverCounters counters,
        final Runnable refreshTopology) {
        this.dataSource = dataSource;
        this.pools = pools;
        this.counters = counters;
        this.refreshTopology = refreshTopology;
    }

    <T> T run(final SqlWork<T> work, final Duration budget) throws SQLException {
        if (budget.isNegative()) {
            throw new IllegalArgumentException("budget must not be negative: " + budget.toMillis() + " ms");
        }
        final long startNs = System.nanoTime();
        final long deadlineNs = startNs + budget.toNanos();
        final Backoff backoff = new Backoff(RETRY_MIN, RETRY_MAX);
        for (int attempt = 1; ; attempt++) {
            final PrimaryPool before = pools.current();
            try {
                return attempt(work, deadlineNs);
            } catch (final SQLException ex) {
                if (!FailoverErrors.isFailoverError(ex)) {
                    throw ex;
                }
                counters.failedAttempt();
                refreshTopology.run();
                final long remainingNs = deadlineNs - System.nanoTime();
                if (remainingNs <= 0) {
                    throw new SQLException("transaction gave up after " + attempt + " attempts in " +
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs) + " ms (budget " +
                        budget.toMillis() + " ms); last failure: " + ex.getMessage(), ex.getSQLState(), ex);
                }
                LOG.debug("attempt {} failed with a failover error, retrying: {}", attempt, ex.getMessage());
                pause(before, Math.min(backoff.nextDelayMs(), TimeUnit.NANOSECONDS.toMillis(remainingNs)));
            }
        }
    }

    private <T> T attempt(final SqlWork<T> work, final long deadlineNs) throws SQLException {
        try (Connection connection = dataSource.connectionBefore(deadlineNs)) {
            connection.setAutoCommit(false);
            try {
                final T result = work.run(connection);
                connection.commit();
                return result;
            } catch (final SQLException | RuntimeException ex) {
                rollbackQuietly(connection, ex);
                throw ex;
            }
        }
    }

    private static void rollbackQuietly(final Connection connection, final Exception failure) {
        try {
            connection.rollback();
        } catch (final SQLException rollbackFailure) {
            // the connection is likely gone with the primary: the original failure is what matters
            failure.addSuppressed(rollbackFailure);
        }
    }

    /**
     * Until the backoff ends or the primary changes, whichever comes first.
     */
    private void pause(final PrimaryPool before, final long delayMs) throws SQLException {
        try {
            pools.awaitOther(before, delayMs);
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted between transaction attempts", ex);
        }
    }
}
