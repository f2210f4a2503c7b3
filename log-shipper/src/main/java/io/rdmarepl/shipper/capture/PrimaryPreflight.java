package io.rdmarepl.shipper.capture;

import io.rdmarepl.shipper.config.ShipperConfig;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Checks the primary before Debezium starts, so the usual mistakes get a one-line error naming
 * the cause and the fix instead of a connector stack trace.
 */
public final class PrimaryPreflight {
    private PrimaryPreflight() {
    }

    /** Opens a plain JDBC connection to the primary the config names. */
    public static Connection connect(ShipperConfig config) throws SQLException {
        return DriverManager.getConnection(config.jdbcUrl(), properties(config, 10));
    }

    /**
     * As {@link #connect(ShipperConfig)}, for a quick look that must not hold its caller (a scrape of /metrics):
     * gives up on connecting, and on each answer, after {@code timeoutSeconds}.
     */
    public static Connection connect(ShipperConfig config, int timeoutSeconds) throws SQLException {
        Properties props = properties(config, timeoutSeconds);
        props.setProperty("socketTimeout", Integer.toString(timeoutSeconds));
        return DriverManager.getConnection(config.jdbcUrl(), props);
    }

    private static Properties properties(ShipperConfig config, int connectTimeoutSeconds) {
        Properties props = new Properties();
        props.setProperty("user", config.databaseUser());
        props.setProperty("password", config.databasePassword());
        props.setProperty("connectTimeout", Integer.toString(connectTimeoutSeconds));
        props.setProperty("ApplicationName", "rdmarepl-shipper");
        return props;
    }

    /** How long a start waits for another walsender to leave the slot before it gives up. */
    static final long SLOT_RELEASE_WAIT_NS = TimeUnit.SECONDS.toNanos(5);
    private static final long SLOT_POLL_NS = TimeUnit.MILLISECONDS.toNanos(50);

    /**
     * @return whether the slot exists already (a restart): strict sync may hold commits before the standbys are reached
     * @throws IllegalStateException naming the problem and its fix
     */
    public static boolean check(ShipperConfig config) {
        String where = config.databaseDescription();
        try (Connection connection = connect(config); Statement statement = connection.createStatement()) {
            String walLevel = single(statement, "SHOW wal_level");
            if (!"logical".equals(walLevel)) {
                throw new IllegalStateException("primary " + where + " runs with wal_level=" + walLevel
                        + ": set wal_level = logical in postgresql.conf and restart it");
            }
            String replication = single(statement, "SELECT rolreplication OR rolsuper FROM pg_roles WHERE rolname = current_user");
            if (!"t".equals(replication)) {
                throw new IllegalStateException("user " + config.databaseUser() + " on " + where
                        + " lacks the REPLICATION privilege: ALTER ROLE " + config.databaseUser() + " REPLICATION");
            }
            try (PreparedStatement slot = connection.prepareStatement(
                    "SELECT active_pid, plugin FROM pg_replication_slots WHERE slot_name = ?")) {
                slot.setString(1, config.slotName());
                // a shipper restarted at once finds its predecessor's walsender still exiting: give it a moment
                long deadline = System.nanoTime() + SLOT_RELEASE_WAIT_NS;
                while (true) {
                    try (ResultSet rs = slot.executeQuery()) {
                        if (!rs.next()) {
                            return false;
                        }
                        if (!"pgoutput".equals(rs.getString(2))) {
                            throw new IllegalStateException("replication slot " + config.slotName() + " on " + where
                                    + " uses plugin " + rs.getString(2) + ", not pgoutput: choose another slot.name or drop it");
                        }
                        if (rs.getObject(1) == null) {
                            return true;
                        }
                        if (System.nanoTime() - deadline >= 0) {
                            throw new IllegalStateException("replication slot " + config.slotName() + " on " + where
                                    + " is in use by backend pid " + rs.getLong(1) + " (still after "
                                    + TimeUnit.NANOSECONDS.toSeconds(SLOT_RELEASE_WAIT_NS) + " s): another shipper is running,"
                                    + " or stop it with pg_terminate_backend(" + rs.getLong(1) + ")");
                        }
                    }
                    LockSupport.parkNanos(SLOT_POLL_NS);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("primary " + where + " unreachable: " + e.getMessage()
                    + " (check database.host, database.port and that PostgreSQL accepts connections)", e);
        }
    }

    private static String single(Statement statement, String sql) throws SQLException {
        try (ResultSet rs = statement.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
