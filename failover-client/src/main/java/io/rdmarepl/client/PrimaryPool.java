package io.rdmarepl.client;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import java.util.function.Consumer;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import com.zaxxer.hikari.pool.HikariPool;

/**
 * The HikariCP pool of one primary in one epoch. A new primary (or a new epoch of the same one) gets a new pool,
 * so no connection ever outlives the topology it was opened for. A standby has a warm pool beforehand
 * ({@link #warm}): a few connections opened ahead, handed out only once the coordinator promotes that standby and
 * the pool is {@link #adopt adopted} for the new epoch; connecting to a new primary is then already done.
 */
final class PrimaryPool implements AutoCloseable {
    /**
     * HikariCP waits this long per borrow; {@link FailoverDataSource} borrows again until its own deadline, looking
     * for a newer primary between tries, so a caller waits at most this long on a primary that was replaced (a
     * retired pool's waiters are not woken).
     */
    static final long BORROW_SLICE_MS = 20;
    /** HikariCP's connectionTimeout and validationTimeout: the least it accepts (borrows pass their own timeout). */
    private static final long HIKARI_TIMEOUT_FLOOR_MS = 250;
    /**
     * How long {@link #freshen} waits per borrow: a check that finds a connection dead (the first one in a process also
     * loads the failure's classes and the logger's) took 31 ms on a busy two-core host, and with {@link #BORROW_SLICE_MS}
     * the freshen gave up after it, leaving the other dead ones for the first transactions after the promotion. It runs
     * off the topology thread, with nobody waiting for it.
     */
    static final long FRESHEN_BORROW_MS = HIKARI_TIMEOUT_FLOOR_MS;

    /** A warm pool's epoch until it is adopted. */
    static final long NOT_ADOPTED = -1;
    /**
     * A standby refuses client writes by its database's default (default_transaction_read_only=on, set by the
     * applier until promotion), and a session keeps the default it started with: the sessions opened ahead
     * are made writable with a session-level SET as they open, while the pool is not adopted ({@link WarmSessionSource});
     * they are handed out only after the adoption. Not with a startup option: the pool would open every later
     * session with it too, and a session's own setting outranks the read-only default a fence sets (ALTER SYSTEM),
     * so a client cut off from the coordinator could write to its fenced primary.
     */
    static final String MAKE_SESSION_WRITABLE = "SET default_transaction_read_only = off";

    private final Member primary;
    private final int poolSize;
    private volatile long epoch;
    private final HikariDataSource hikari;

    /**
     * @param onFailoverError told, with this pool, when a borrowed connection fails with a failover error
     */
    PrimaryPool(final Member primary, final long epoch, final FailoverDataSourceConfig config,
        final Consumer<PrimaryPool> onFailoverError) {
        this(primary, epoch, config, onFailoverError, false);
    }

    private PrimaryPool(final Member primary, final long epoch, final FailoverDataSourceConfig config,
        final Consumer<PrimaryPool> onFailoverError, final boolean warm) {
        this.primary = primary;
        this.epoch = epoch;
        this.poolSize = config.poolSize();
        final HikariConfig hikariConfig = hikariConfig(primary, warm, config,
            new FailoverExceptionOverride(() -> onFailoverError.accept(this)));
        if (warm) {
            // its sessions are opened writable while it is not adopted; never handed out before (see borrow)
            hikariConfig.setDataSource(new WarmSessionSource(primary.jdbcUrl(), sessionProperties(config), this::adopted));
            hikariConfig.setJdbcUrl(null);
            hikariConfig.setUsername(null); // HikariCP would call getConnection(user, password): the source has them
            hikariConfig.setPassword(null);
        }
        this.hikari = new HikariDataSource(hikariConfig);
    }

    /**
     * @return a pool to standby {@code standby} keeping {@link FailoverDataSourceConfig#standbyConnections()} open,
     * not handing out any until {@link #adopt adopted}
     */
    static PrimaryPool warm(final Member standby, final FailoverDataSourceConfig config,
        final Consumer<PrimaryPool> onFailoverError) {
        return new PrimaryPool(standby, NOT_ADOPTED, config, onFailoverError, true);
    }

    /**
     * The coordinator promoted this warm pool's standby at {@code newEpoch}: it serves that epoch now and fills up to
     * the pool size. No round trip: the sessions opened ahead were made writable when they were opened
     * ({@link WarmSessionSource}), and those it opens from now on start with the promoted server's default.
     */
    void adopt(final long newEpoch) {
        epoch = newEpoch;
        hikari.getHikariConfigMXBean().setMinimumIdle(poolSize);
    }

    boolean adopted() {
        return epoch != NOT_ADOPTED;
    }

    private static HikariConfig hikariConfig(final Member primary, final boolean warm,
        final FailoverDataSourceConfig config, final FailoverExceptionOverride override) {
        final HikariConfig hikari = new HikariConfig();
        // no epoch in the name: a warm pool keeps its name when it is adopted
        hikari.setPoolName(config.applicationName() + "-" + primary.name() + (warm ? "-warm" : ""));
        hikari.setJdbcUrl(primary.jdbcUrl());
        hikari.setUsername(config.user());
        if (config.password() != null) {
            hikari.setPassword(config.password());
        }
        hikari.setDataSourceProperties(driverProperties(config));
        hikari.setTransactionIsolation(config.transactionIsolation());
        hikari.setMaximumPoolSize(config.poolSize());
        hikari.setMinimumIdle(warm ? config.standbyConnections() : config.poolSize());
        hikari.setConnectionTimeout(HIKARI_TIMEOUT_FLOOR_MS);
        // HikariCP would lower it to connectionTimeout with a WARN: say it ourselves
        hikari.setValidationTimeout(HIKARI_TIMEOUT_FLOOR_MS);
        // open connections in the background: the new primary may still be starting when the topology names it
        hikari.setInitializationFailTimeout(-1);
        hikari.setExceptionOverride(override);
        hikari.setRegisterMbeans(false);
        return hikari;
    }

    /** What a warm pool's {@link WarmSessionSource} connects with: the driver's properties, user and password. */
    private static Properties sessionProperties(final FailoverDataSourceConfig config) {
        final Properties properties = driverProperties(config);
        properties.setProperty("user", config.user());
        if (config.password() != null) {
            properties.setProperty("password", config.password());
        }
        return properties;
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

    /** Whether this pool's connections go to {@code member}'s server (whatever its epoch). */
    boolean connectsTo(final Member member) {
        return primary.sameServer(member);
    }

    /**
     * @throws SQLException after {@link #BORROW_SLICE_MS} without a connection; its cause is the last failure to
     *                      connect, if any
     */
    Connection borrow() throws SQLException {
        if (!adopted()) {
            // its sessions are writable on a standby: only an adoption (the coordinator promoted it) hands them out
            throw new IllegalStateException("the connections opened ahead to standby " + primary.name()
                + " are handed out only once it is promoted");
        }
        // HikariDataSource only borrows with its connectionTimeout, which may not be under 250 ms; its pool can
        if (!hikari.isClosed() && hikari.getHikariPoolMXBean() instanceof HikariPool pool) {
            return pool.getConnection(BORROW_SLICE_MS);
        }
        return hikari.getConnection(); // closed: throws saying so
    }

    /**
     * A failover is under way and this warm pool's standby may be the one promoted: borrows each of its idle
     * connections and returns it at once, handing none out. HikariCP checks a connection idle for more than half a
     * second with a round trip before it hands it out; done now, that check (and the replacement of a connection
     * found dead) happens while the coordinator promotes, not on the first transaction after it. Measured in the
     * host-per-role failover benchmark: that check took 55 to 69 ms of the clients' outage in 2 trials of 5, on the
     * one CPU the standby's processes share. A connection that cannot be borrowed now is left to the adoption.
     */
    void freshen() {
        if (adopted() || hikari.isClosed() || !(hikari.getHikariPoolMXBean() instanceof HikariPool pool)) {
            return;
        }
        final Connection[] borrowed = new Connection[Math.max(1, pool.getIdleConnections())];
        int count = 0;
        try {
            while (count < borrowed.length && !adopted()) { // adopted meanwhile: its clients need them now
                borrowed[count] = pool.getConnection(FRESHEN_BORROW_MS);
                count++;
            }
        } catch (final SQLException | RuntimeException notNow) {
            // none idle, or the standby does not answer: the adoption finds out
        } finally {
            for (int i = 0; i < count; i++) {
                try {
                    borrowed[i].close(); // back to the pool, checked just now
                } catch (final SQLException ignored) {
                    // HikariCP evicts a connection that fails to be returned
                }
            }
        }
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
        return adopted() ? "primary " + primary.name() + " (" + primary.jdbcUrl() + ") of epoch " + epoch
            : "standby " + primary.name() + " (" + primary.jdbcUrl() + "), connections ready";
    }
}
