package io.rdmarepl.shipper.sync;

import io.rdmarepl.shipper.capture.PrimaryPreflight;
import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.shipper.config.SyncSettings;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The primary's side of sync mode: {@code synchronous_standby_names} lists the shipper's replication connection
 * ({@link SyncSettings#applicationName}), so every commit waits until the shipper confirms its LSN. Strict sync lists
 * it as soon as the slot exists ({@link #holdCommits}), before the shipper reaches its standbys: a commit made while a start
 * waits for a standby a partition hides, or while a fresh slot's copy runs, waits too. Never before the slot exists:
 * creating a logical slot waits for every running transaction, and a commit waiting for a synchronous standby still
 * counts as running, so the slot would wait for commits that wait for the slot. The shipper's own writes (the
 * publication it creates, its copy points, the message below) commit locally: none waits for the shipper itself.
 * Changed with ALTER SYSTEM and a reload, which wait for no standby themselves.
 */
public final class SynchronousStandbyNames {
    private static final Logger LOG = LoggerFactory.getLogger(SynchronousStandbyNames.class);
    /** Commit levels at which a commit waits for the flush position the shipper reports. */
    private static final Set<String> WAITING_LEVELS = Set.of("on", "remote_apply");

    private final ShipperConfig config;
    private final String name;

    public SynchronousStandbyNames(ShipperConfig config) {
        this.config = config;
        this.name = SyncSettings.applicationName(config.sourceName());
    }

    public String name() {
        return name;
    }

    /**
     * Waits until the replication connection streams, checks commits will wait for it, makes it report a flush
     * position, lists it (again, after {@link #holdCommits}), and returns once the primary takes it for a synchronous standby.
     *
     * @param timeout  from the moment it streams, for the primary to take it for a synchronous standby
     * @param stopping true once the shipper stops: the wait for streaming ends then
     * @throws IllegalStateException naming the setting when commits would not wait (synchronous_commit), when the
     *                               shipper stopped first, or when the primary did not take it within {@code timeout}
     */
    public void enableOnceStreaming(Duration timeout, BooleanSupplier stopping) throws SQLException, InterruptedException {
        while (!streaming()) { // an initial copy comes first, and takes as long as the tables need
            if (stopping.getAsBoolean()) {
                throw new IllegalStateException("the shipper stopped before its replication connection " + name + " streamed");
            }
            Thread.sleep(20);
        }
        // strict: commits wait from the hold on, and this only tells /status when the primary counts them held
        long deadline = config.sync().strict() ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
        try (Connection connection = PrimaryPreflight.connect(config); Statement statement = connection.createStatement()) {
            requireWaitingCommits(statement);
            // PostgreSQL takes a walsender for a synchronous standby only once it reported a flush position; on a
            // primary without writes it would have none, and commits would not wait although listed
            statement.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE");
            statement.execute("SET synchronous_commit = local");
            statement.execute("SELECT pg_logical_emit_message(true, 'rdmarepl.sync', 'sync mode starts')");
        }
        awaitState("flush_lsn IS NOT NULL", deadline, stopping, "reported no flush position");
        enable();
        awaitState("sync_state IN ('sync', 'quorum')", deadline, stopping, "was not taken as a synchronous standby");
    }

    /** Waits until the replication connection's row in pg_stat_replication satisfies {@code condition}. */
    private void awaitState(String condition, long deadline, BooleanSupplier stopping, String failure)
            throws SQLException, InterruptedException {
        while (true) {
            try (Connection connection = PrimaryPreflight.connect(config);
                 PreparedStatement query = connection.prepareStatement(
                         "SELECT count(*) FROM pg_stat_replication WHERE application_name = ? AND " + condition)) {
                query.setString(1, name);
                try (ResultSet rs = query.executeQuery()) {
                    rs.next();
                    if (rs.getInt(1) > 0) {
                        return;
                    }
                }
            }
            if (stopping.getAsBoolean()) {
                throw new IllegalStateException("the shipper stopped before its replication connection " + name + " was"
                        + " taken for a synchronous standby");
            }
            if (deadline != Long.MAX_VALUE && System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the replication connection " + name + " " + failure + " on "
                        + config.databaseDescription() + " in time");
            }
            Thread.sleep(20);
        }
    }


    /**
     * Strict sync, once the slot exists: lists the replication connection now, so every commit from here on waits for the
     * standbys, also while this shipper still connects to them or copies. Nothing to do in async mode or with a degrade
     * policy, which lets commits through until the shipper streams. A failure is logged, not thrown: the enabling that
     * follows meets it too, and reports it.
     */
    public void holdCommits() {
        if (!config.sync().enabled() || !config.sync().strict()) {
            return;
        }
        try {
            try (Connection connection = PrimaryPreflight.connect(config); Statement statement = connection.createStatement()) {
                requireWaitingCommits(statement);
            }
            enable();
            LOG.info("strict sync: commits on the primary wait for the standbys from now on ({} listed in "
                    + "synchronous_standby_names)", name);
        } catch (SQLException | RuntimeException e) {
            LOG.warn("strict sync: synchronous_standby_names could not be set yet ({}); commits do not wait until it is",
                    e.getMessage());
        }
    }

    private void requireWaitingCommits(Statement statement) throws SQLException {
        try (ResultSet rs = statement.executeQuery("SHOW synchronous_commit")) {
            rs.next();
            String level = rs.getString(1);
            if (!WAITING_LEVELS.contains(level)) {
                throw new IllegalStateException("synchronous_commit is '" + level + "' on " + config.databaseDescription()
                        + ", so commits would not wait for the standbys (remote_write would trust a position the replication "
                        + "connection reports on receipt); set it to on or remote_apply");
            }
        }
    }

    /** Commits stop waiting (async): the standbys are not answering and the policy says not to block. */
    public void disable() throws SQLException {
        set("''");
    }

    /** Lists the replication connection again (the standbys caught up after a degradation). */
    public void enable() throws SQLException {
        set("'\"" + name + "\"'");
    }

    private boolean streaming() throws SQLException {
        try (Connection connection = PrimaryPreflight.connect(config);
             PreparedStatement query = connection.prepareStatement(
                     "SELECT count(*) FROM pg_stat_replication WHERE application_name = ? AND state = 'streaming'")) {
            query.setString(1, name);
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                return rs.getInt(1) > 0;
            }
        }
    }

    private void set(String value) throws SQLException {
        try (Connection connection = PrimaryPreflight.connect(config); Statement statement = connection.createStatement()) {
            statement.execute("ALTER SYSTEM SET synchronous_standby_names = " + value);
            statement.execute("SELECT pg_reload_conf()");
        }
    }
}
