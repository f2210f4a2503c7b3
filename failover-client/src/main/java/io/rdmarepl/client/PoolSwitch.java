package io.rdmarepl.client;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the pool of the current primary and replaces it when the topology names another primary or epoch. Beside
 * it, a warm pool to each standby ({@link FailoverDataSourceConfig#standbyConnections()}): when the coordinator
 * promotes a standby, its warm pool becomes the primary's pool, connections already open.
 * The replaced pool is retired at once (idle connections closed, no new ones opened) and closed in the background
 * once its borrowed connections are returned or the grace period ends. While the topology has no primary there is
 * no current pool, and callers wait in {@link #awaitPool(long)}.
 */
final class PoolSwitch implements TopologyListener, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PoolSwitch.class);
    private static final long RETIRE_CHECK_MS = 10;
    /** The coordinator's role of a member that follows the primary. */
    private static final String STANDBY = "STANDBY";
    /** The coordinator's role of the primary, and of the member being promoted while no primary is named. */
    private static final String PRIMARY = "PRIMARY";

    private final FailoverDataSourceConfig config;
    private final Consumer<PrimaryPool> onFailoverError;
    private final FailoverCounters counters;
    private final Set<PrimaryPool> retiring = ConcurrentHashMap.newKeySet();
    /**
     * Checks, closes and retirements of pools, off the topology thread: a pool to a server that may be gone can wait on
     * a connection attempt. Threads are kept a while, so a failover's checks do not start threads.
     */
    private final ExecutorService background = Executors.newCachedThreadPool(daemonThreads());
    /** By member name; only changed under this object's lock. */
    private final Map<String, PrimaryPool> warm = new HashMap<>();
    private volatile PrimaryPool current;
    private volatile String openFailure;
    private PrimaryPool lastInstalled;
    private boolean closed;

    PoolSwitch(final FailoverDataSourceConfig config, final Consumer<PrimaryPool> onFailoverError,
        final FailoverCounters counters) {
        this.config = config;
        this.onFailoverError = onFailoverError;
        this.counters = counters;
    }

    @Override
    public synchronized void onTopology(final Topology previous, final Topology next) {
        if (closed) {
            return;
        }
        final Member primary = next.primary();
        try {
            switchPrimary(primary, next);
        } finally {
            warmStandbys(next);
        }
        if (primary == null) {
            freshenWarmPools();
        }
    }

    /** A failover is under way: every warm pool's connections are checked now, off the topology thread. */
    private void freshenWarmPools() {
        for (final PrimaryPool pool : warm.values()) {
            background.execute(pool::freshen);
        }
    }

    private void switchPrimary(final Member primary, final Topology next) {
        if (primary == null) {
            replace(null, next);
            return;
        }
        if (current != null && current.serves(next.epoch(), primary)) {
            return;
        }
        final PrimaryPool ready = warm.remove(primary.name());
        if (ready != null && ready.connectsTo(primary)) {
            try {
                ready.adopt(next.epoch());
                install(ready, next);
                return;
            } catch (final RuntimeException ex) {
                LOG.warn("the connections opened ahead to {} could not be taken over ({}): opening new ones",
                    primary.name(), ex.getMessage());
            }
        }
        if (ready != null) {
            closeInBackground(ready); // the member moved to another address, or its adoption failed
        }
        final PrimaryPool pool;
        try {
            pool = new PrimaryPool(primary, next.epoch(), config, onFailoverError);
        } catch (final RuntimeException ex) {
            // e.g. a URL no driver takes: hand out nothing rather than connections to the replaced primary
            openFailure = "cannot open a pool to primary " + primary.name() + " (" + primary.jdbcUrl() + "): " +
                ex.getMessage();
            LOG.error("topology {}: {}", next.describe(), openFailure);
            replace(null, next);
            return;
        }
        install(pool, next);
    }

    private void install(final PrimaryPool pool, final Topology next) {
        openFailure = null;
        if (lastInstalled != null && !lastInstalled.serves(pool.epoch(), pool.primary())) {
            counters.failoverSeen();
        }
        lastInstalled = pool;
        replace(pool, next);
    }

    /**
     * A warm pool to every member the topology lists as a standby; kept for one being promoted (role PRIMARY while
     * the topology names no primary yet); none to any other (the primary, a fenced or rejoining member, one no
     * longer listed).
     */
    private void warmStandbys(final Topology topology) {
        if (config.standbyConnections() == 0) {
            return;
        }
        final Map<String, Member> kept = new HashMap<>();
        for (final Member member : topology.members()) {
            final boolean standby = STANDBY.equals(member.role()) && !member.sameServer(topology.primary());
            final boolean promoting = PRIMARY.equals(member.role()) && topology.primary() == null;
            if (standby || promoting) {
                kept.put(member.name(), member);
            }
        }
        for (final Iterator<Map.Entry<String, PrimaryPool>> it = warm.entrySet().iterator(); it.hasNext(); ) {
            final Map.Entry<String, PrimaryPool> entry = it.next();
            final Member member = kept.get(entry.getKey());
            if (member == null || !entry.getValue().connectsTo(member)) {
                closeInBackground(entry.getValue());
                it.remove();
            }
        }
        for (final Member standby : kept.values()) {
            if (STANDBY.equals(standby.role()) && !warm.containsKey(standby.name())) {
                try {
                    warm.put(standby.name(), PrimaryPool.warm(standby, config, onFailoverError));
                } catch (final RuntimeException ex) {
                    // it stays cold: its pool is opened when it is promoted, and fails then with this reason
                    LOG.warn("no connections opened ahead to standby {} ({}): {}", standby.name(), standby.jdbcUrl(),
                        ex.getMessage());
                }
            }
        }
    }

    /**
     * Make {@code next} (null: none) the pool connections come from, wake the callers waiting, retire the old one.
     */
    private void replace(final PrimaryPool next, final Topology topology) {
        final PrimaryPool old = current;
        if (old == null && next == null) {
            return;
        }
        current = next;
        notifyAll();
        if (old != null) {
            retire(old);
        }
        LOG.info("topology {}: connections now go to {}{}", topology.describe(),
            next == null ? "no server until the coordinator names a primary" : next.describe(),
            old == null ? "" : " instead of " + old.describe());
    }

    /**
     * @return the current pool, waiting for one until {@code deadlineNs} ({@link System#nanoTime()}); null if
     * none came
     * @throws SQLException if interrupted or closed
     */
    PrimaryPool awaitPool(final long deadlineNs) throws SQLException {
        final PrimaryPool pool = current;
        if (pool != null) {
            return pool;
        }
        synchronized (this) {
            try {
                while (current == null && !closed) {
                    final long remainingNs = deadlineNs - System.nanoTime();
                    if (remainingNs <= 0) {
                        return null;
                    }
                    TimeUnit.NANOSECONDS.timedWait(this, remainingNs);
                }
            } catch (final InterruptedException ex) {
                Thread.currentThread().interrupt();
                // no SQLState: an interrupt is not a failover, so nothing retries it
                throw new SQLException("interrupted while waiting for the coordinator to name a primary", ex);
            }
            if (closed) {
                throw new SQLNonTransientConnectionException("the failover data source is closed");
            }
            return current;
        }
    }

    /**
     * Wait up to {@code timeoutMs} for the current pool to be another than {@code seen} (or none): a retry after a
     * failover error goes as soon as the topology changes, not after a fixed pause.
     */
    synchronized void awaitOther(final PrimaryPool seen, final long timeoutMs) throws InterruptedException {
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (current == seen && !closed) {
            final long remainingNs = deadlineNs - System.nanoTime();
            if (remainingNs <= 0) {
                return;
            }
            TimeUnit.NANOSECONDS.timedWait(this, remainingNs);
        }
    }

    /**
     * @return true if {@code pool} still serves the current primary: a connection borrowed from any other must not
     * be handed out.
     */
    boolean isCurrent(final PrimaryPool pool) {
        return current == pool;
    }

    /**
     * @return why the pool of the primary the topology names could not be opened, or null.
     */
    String openFailure() {
        return openFailure;
    }

    /**
     * @return the pool connections go to now, or null while no primary is known.
     */
    PrimaryPool current() {
        return current;
    }

    /** A pool to a server that may be gone: HikariCP's close can wait on a connection attempt. */
    private void closeInBackground(final PrimaryPool pool) {
        background.execute(pool::close);
    }

    private void retire(final PrimaryPool pool) {
        pool.retire();
        retiring.add(pool);
        background.execute(() -> closeWhenReturned(pool, config.retiredPoolGrace()));
    }

    private static ThreadFactory daemonThreads() {
        final AtomicInteger count = new AtomicInteger();
        return task -> {
            final Thread thread = new Thread(task, "rdmarepl-pools-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    private void closeWhenReturned(final PrimaryPool pool, final Duration grace) {
        final long deadlineNs = System.nanoTime() + grace.toNanos();
        try {
            while (pool.borrowedConnections() > 0 && System.nanoTime() - deadlineNs < 0) {
                Thread.sleep(RETIRE_CHECK_MS);
            }
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        final int aborted = pool.borrowedConnections();
        pool.close();
        retiring.remove(pool);
        if (aborted > 0) {
            LOG.info("closed the pool of {}: aborted {} connections still borrowed after {} ms", pool.describe(),
                aborted, grace.toMillis());
        }
    }

    @Override
    public void close() {
        final PrimaryPool last;
        synchronized (this) {
            closed = true;
            last = current;
            current = null;
            notifyAll();
        }
        if (last != null) {
            last.close();
        }
        synchronized (this) {
            warm.values().forEach(PrimaryPool::close);
            warm.clear();
        }
        for (final PrimaryPool pool : retiring) {
            pool.close();
        }
        background.shutdown();
    }
}
