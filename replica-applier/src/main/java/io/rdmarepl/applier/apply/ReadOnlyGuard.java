package io.rdmarepl.applier.apply;

import io.rdmarepl.applier.schema.SqlNames;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the replica read-only for clients until promotion: {@code default_transaction_read_only} is set on
 * the database, so every new client session starts read-only; the applier's sessions turn it off. Sessions
 * already open keep what they had.
 */
final class ReadOnlyGuard {
    private static final Logger LOG = LoggerFactory.getLogger(ReadOnlyGuard.class);

    private ReadOnlyGuard() {
    }

    static void readOnlyForClients(Connection connection) throws SQLException {
        alter(connection, "SET default_transaction_read_only = on");
    }

    static void writableForClients(Connection connection) throws SQLException {
        alter(connection, "RESET default_transaction_read_only");
    }

    /**
     * Runs {@link #writableForClients}'s statement in the open transaction of {@code connection} and rolls it back: the
     * session that will promote has parsed, planned and run it once (catalog caches loaded, the driver's path warm),
     * so a promotion, the first time it runs in this process, only runs it again. Nothing of it stays: the replica
     * remains read-only for clients. A failure is only a colder promotion (logged once, the transaction rolled back).
     *
     * @throws IllegalStateException when {@code connection} commits by itself: the statement would stay
     */
    static void rehearseWritable(Connection connection) throws SQLException {
        if (connection.getAutoCommit()) {
            throw new IllegalStateException("the promotion's rehearsal needs a transaction: autocommit would keep the replica writable");
        }
        try {
            writableForClients(connection);
        } catch (SQLException e) {
            LOG.warn("cannot rehearse the promotion's statement ({}); a promotion runs it cold", e.getMessage());
        } finally {
            connection.rollback();
        }
    }

    private static void alter(Connection connection, String action) throws SQLException {
        // the driver knows the database its URL named: no round trip to ask, on the way to a promotion
        String database = connection.getCatalog();
        try (Statement statement = connection.createStatement()) {
            if (database == null || database.isEmpty()) {
                // no database in the URL: the server chose one (the user's name); ask it which
                try (ResultSet rows = statement.executeQuery("SELECT current_database()")) {
                    rows.next();
                    database = rows.getString(1);
                }
            }
            statement.execute("ALTER DATABASE " + SqlNames.quote(database) + " " + action);
        }
    }
}
