package io.rdmarepl.harness.bench.lag;

import io.rdmarepl.harness.bench.PhysicalStandby;
import io.rdmarepl.shipper.config.SyncSettings;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The primary's {@code synchronous_standby_names} during {@code --mode sync}: it lists the one system whose turn it is
 * (PostgreSQL's subscription, its physical standby; rdmarepl's shipper lists itself), and is cleared after that
 * system, before anything else commits: a name left there would make every later commit on the primary wait for a
 * standby that is gone. Set with ALTER SYSTEM and a reload, as the shipper does, which wait for no standby themselves.
 */
final class SynchronousStandbys {
    /** Every application_name the benchmark lists: its shipper's, its subscription's, its physical standby's. */
    static final Set<String> OURS = Set.of(SyncSettings.applicationName(RdmareplSystem.SOURCE_NAME), NativeLogicalSystem.NAME,
            PhysicalStandby.APPLICATION_NAME);
    private static final Duration SETTLE = Duration.ofSeconds(30);

    private SynchronousStandbys() {
    }

    /** The setting as a new session sees it ("" when empty). */
    static String current(Endpoint primary) {
        String value = primary.query("postgres", "SHOW synchronous_standby_names");
        return value == null ? "" : value.strip();
    }

    /**
     * @return whether {@code value} is empty or names only standbys of the benchmark (what an interrupted run left)
     */
    static boolean oursOrEmpty(String value) {
        String list = value.strip();
        if (list.isEmpty()) {
            return true;
        }
        // FIRST k (...), ANY k (...), k (...) or a plain list: the names are what matters
        String names = list.contains("(") && list.endsWith(")") ? list.substring(list.indexOf('(') + 1, list.length() - 1) : list;
        return Arrays.stream(names.split(",")).map(n -> n.strip().replace("\"", "")).allMatch(OURS::contains);
    }

    /**
     * Lists {@code applicationName} as the one synchronous standby and waits until its walsender took that in:
     * pg_stat_replication shows it {@code sync}, or (PostgreSQL shows a standby that never reported a flush position
     * as async, and does not count it yet) it has reported none. Whether it really was synchronous is checked again
     * once commits ran ({@link #syncState}).
     *
     * @throws IllegalStateException naming the standby when it does not become synchronous in time
     */
    static void require(Endpoint primary, String applicationName) {
        // one statement each: ALTER SYSTEM refuses to run in the implicit transaction of a multi-statement query
        primary.execute("postgres", "ALTER SYSTEM SET synchronous_standby_names = '\"" + applicationName + "\"'");
        primary.execute("postgres", "SELECT pg_reload_conf()");
        awaitListed(primary, applicationName, SETTLE);
    }

    /**
     * Waits until {@code applicationName} is {@code sync} in pg_stat_replication, or listed and without a flush position.
     *
     * @throws IllegalStateException with what the primary shows when it is neither within {@code timeout}
     */
    static void awaitListed(Endpoint primary, String applicationName, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String state = null;
        while (System.nanoTime() - deadline < 0) {
            state = syncState(primary, applicationName);
            if ("sync".equals(state) || "no flush position".equals(state) && current(primary).contains(applicationName)) {
                return;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        throw new IllegalStateException(applicationName + " not a synchronous standby of " + primary + " within " + timeout.toSeconds()
                + " s (pg_stat_replication sync_state " + state + ", synchronous_standby_names '" + current(primary) + "')");
    }

    /**
     * pg_stat_replication's sync_state of {@code applicationName}'s connection; "no flush position" while it has reported
     * none (PostgreSQL then shows it as async whatever the setting); null when it has no connection.
     */
    static String syncState(Endpoint primary, String applicationName) {
        try (Connection c = primary.connect("postgres");
             PreparedStatement query = c.prepareStatement("SELECT CASE WHEN flush_lsn IS NULL THEN 'no flush position' ELSE sync_state END"
                     + " FROM pg_stat_replication WHERE application_name = ? ORDER BY sync_state = 'sync' DESC LIMIT 1")) {
            query.setString(1, applicationName);
            try (ResultSet rs = query.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read pg_stat_replication on " + primary + ": " + e.getMessage(), e);
        }
    }

    /**
     * Commits stop waiting: the setting is removed from postgresql.auto.conf and reloaded, and this waits until a new
     * session sees it empty.
     *
     * @throws IllegalStateException when it still is not empty after a while (then every commit would wait)
     */
    static void clear(Endpoint primary) {
        primary.execute("postgres", "ALTER SYSTEM RESET synchronous_standby_names");
        primary.execute("postgres", "SELECT pg_reload_conf()");
        long deadline = System.nanoTime() + SETTLE.toNanos();
        String value = current(primary);
        while (!value.isEmpty()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("synchronous_standby_names on " + primary + " is still '" + value + "' after ALTER SYSTEM RESET"
                        + " and a reload (postgresql.conf sets it?): commits there wait for that standby");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            value = current(primary);
        }
    }
}
