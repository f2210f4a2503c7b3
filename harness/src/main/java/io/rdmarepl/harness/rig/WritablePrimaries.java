package io.rdmarepl.harness.rig;

import io.rdmarepl.testsupport.PostgresServer;
import io.rdmarepl.testsupport.history.ClientWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/** How many of a set of servers accept a write now: after a failover exactly one must (no split brain). */
public final class WritablePrimaries {
    private WritablePrimaries() {
    }

    public static int count(PostgresServer... servers) {
        int writable = 0;
        for (PostgresServer server : servers) {
            if (acceptsWrite(server)) {
                writable++;
            }
        }
        return writable;
    }

    /**
     * True when the server takes an insert into {@link ClientWriter#TABLE} (rolled back: nothing stays); false
     * when it cannot be reached or refuses (read-only, fenced, in recovery).
     */
    public static boolean acceptsWrite(PostgresServer server) {
        Properties properties = new Properties();
        properties.setProperty("connectTimeout", "2");
        properties.setProperty("socketTimeout", "5");
        try (Connection c = DriverManager.getConnection(server.jdbcUrl("postgres"), properties)) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("INSERT INTO " + ClientWriter.TABLE + " (id) VALUES (-1) ON CONFLICT (id) DO NOTHING");
            } finally {
                c.rollback();
            }
            return true;
        } catch (SQLException e) {
            return false;
        }
    }
}
