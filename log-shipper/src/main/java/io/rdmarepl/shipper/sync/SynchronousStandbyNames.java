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

/**
 * The primary's side of sync mode: {@code synchronous_standby_names} lists the shipper's replication connection
 * ({@link SyncSettings#applicationName}), so every commit waits until the shipper confirms its LSN. Set only once
 * that connection streams: set earlier, Debezium's own slot and publication statements would wait for a
 * standby that is not there yet. Changed with ALTER SYSTEM and a reload, which wait for no standby themselves.
 */
public final class SynchronousStandbyNames {
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
     * position, lists it, and returns once the primary takes it for a synchronous standby.
     *
     * @throws IllegalStateException naming the setting when commits would not wait (synchronous_commit), or when the
     *                               connection does not stream within {@code timeout}
     */
    public void enableOnceStreaming(Duration timeout) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!streaming()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the replication connection " + name + " did not stream from "
                        + config.databaseDescription() + " within " + timeout.toSeconds() + " s; synchronous_standby_names not set");
            }
            Thread.sleep(20);
        }
        try (Connection connection = PrimaryPreflight.connect(config); Statement statement = connection.createStatement()) {
            try (ResultSet rs = statement.executeQuery("SHOW synchronous_commit")) {
                rs.next();
                String level = rs.getString(1);
                if (!WAITING_LEVELS.contains(level)) {
                    throw new IllegalStateException("synchronous_commit is '" + level + "' on " + config.databaseDescription()
                            + ", so commits would not wait for the standbys (remote_write would trust a position the replication "
                            + "connection reports on receipt); set it to on or remote_apply");
                }
            }
            // PostgreSQL takes a walsender for a synchronous standby only once it reported a flush position; on a
            // primary without writes it would have none, and commits would not wait although listed
            statement.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE");
            statement.execute("SELECT pg_logical_emit_message(true, 'rdmarepl.sync', 'sync mode starts')");
        }
        awaitState("flush_lsn IS NOT NULL", deadline, "reported no flush position");
        set("'\"" + name + "\"'");
        awaitState("sync_state IN ('sync', 'quorum')", deadline, "was not taken as a synchronous standby");
    }

    /** Waits until the replication connection's row in pg_stat_replication satisfies {@code condition}. */
    private void awaitState(String condition, long deadline, String failure) throws SQLException, InterruptedException {
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
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the replication connection " + name + " " + failure + " on "
                        + config.databaseDescription() + " in time");
            }
            Thread.sleep(20);
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
