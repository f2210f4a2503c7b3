package io.rdmarepl.client;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.PostgresServer;

/**
 * What the coordinator does to a primary it replaces, done here by hand: make it refuse writes and cut its client
 * sessions. And the reverse, so that tests sharing servers start from writable ones.
 */
final class Fencing {
    private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(5);

    private Fencing() {
    }

    /**
     * {@code ALTER SYSTEM SET default_transaction_read_only = on}, reload, then terminate every other client backend.
     */
    static void fence(final PostgresServer server) {
        server.execute("ALTER SYSTEM SET default_transaction_read_only = on");
        server.execute("SELECT pg_reload_conf()");
        Await.until(server.name() + " refuses writes in new sessions", SETTLE_TIMEOUT, () -> readOnly(server));
        server.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity " +
            "WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()");
    }

    static void unfence(final PostgresServer server) {
        server.execute("ALTER SYSTEM RESET default_transaction_read_only");
        server.execute("SELECT pg_reload_conf()");
        Await.until(server.name() + " takes writes in new sessions", SETTLE_TIMEOUT, () -> !readOnly(server));
    }

    /**
     * @return how many sessions of {@code applicationName} the server has.
     */
    static int sessions(final PostgresServer server, final String applicationName) {
        return queryInt(server, "SELECT count(*) FROM pg_stat_activity WHERE application_name = '" +
            applicationName.replace("'", "''") + "'");
    }

    /**
     * @return how many sessions of {@code applicationName} the server has that have been idle for more than {@code ms}.
     */
    static int sessionsIdleFor(final PostgresServer server, final String applicationName, final long ms) {
        return queryInt(server, "SELECT count(*) FROM pg_stat_activity WHERE application_name = '" +
            applicationName.replace("'", "''") + "' AND state = 'idle' AND now() - state_change > interval '" + ms + " ms'");
    }

    /**
     * @return the backend pids of the sessions of {@code applicationName} on the server.
     */
    static List<Integer> sessionPids(final PostgresServer server, final String applicationName) {
        final String sql = "SELECT pid FROM pg_stat_activity WHERE application_name = '" +
            applicationName.replace("'", "''") + "'";
        final List<Integer> pids = new ArrayList<>();
        try (Connection connection = server.connect("postgres");
            Statement statement = connection.createStatement();
            ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                pids.add(rows.getInt(1));
            }
        } catch (final SQLException ex) {
            throw new IllegalStateException(server.name() + ": " + sql, ex);
        }
        return pids;
    }

    private static boolean readOnly(final PostgresServer server) {
        return queryInt(server, "SELECT CASE WHEN current_setting('default_transaction_read_only')::bool " +
            "THEN 1 ELSE 0 END") == 1;
    }

    private static int queryInt(final PostgresServer server, final String sql) {
        try (Connection connection = server.connect("postgres");
            Statement statement = connection.createStatement();
            ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getInt(1);
        } catch (final SQLException ex) {
            throw new IllegalStateException(server.name() + ": " + sql, ex);
        }
    }
}
