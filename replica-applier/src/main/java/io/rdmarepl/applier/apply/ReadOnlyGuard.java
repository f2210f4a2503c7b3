package io.rdmarepl.applier.apply;

import io.rdmarepl.applier.schema.SqlNames;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Keeps the replica read-only for clients until promotion: {@code default_transaction_read_only} is set on
 * the database, so every new client session starts read-only; the applier's sessions turn it off. Sessions
 * already open keep what they had.
 */
final class ReadOnlyGuard {
    private ReadOnlyGuard() {
    }

    static void readOnlyForClients(Connection connection) throws SQLException {
        alter(connection, "SET default_transaction_read_only = on");
    }

    static void writableForClients(Connection connection) throws SQLException {
        alter(connection, "RESET default_transaction_read_only");
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
