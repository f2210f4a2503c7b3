package io.rdmarepl.client;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Which server a connection reaches: all test servers listen on 127.0.0.1, each on its own port.
 */
final class PrimaryProbe {
    private PrimaryProbe() {
    }

    static int serverPort(final Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
            ResultSet rows = statement.executeQuery("SELECT inet_server_port()")) {
            rows.next();
            return rows.getInt(1);
        }
    }
}
