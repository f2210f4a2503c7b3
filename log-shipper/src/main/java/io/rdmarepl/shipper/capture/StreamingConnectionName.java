package io.rdmarepl.shipper.capture;

import io.debezium.jdbc.JdbcConfiguration;
import io.debezium.jdbc.JdbcConnection;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Debezium's connection factory ({@code database.connection.factory.class}), there only to give the replication
 * connection the shipper's own {@code application_name}: Debezium fixes it to {@value #DEBEZIUM_STREAMING}
 * after every user property, and {@code synchronous_standby_names} must name this shipper, not every Debezium
 * that streams from the primary. Every other connection is made exactly as Debezium makes it.
 */
public final class StreamingConnectionName implements JdbcConnection.ConnectionFactory {
    /** The connection property (under {@code database.}) that carries the name. */
    public static final String NAME_PROPERTY = "rdmareplStreamingName";
    static final String DEBEZIUM_STREAMING = "Debezium Streaming";

    private static final JdbcConnection.ConnectionFactory PGJDBC = JdbcConnection.patternBasedFactory(
            "jdbc:postgresql://${" + JdbcConfiguration.HOSTNAME + "}:${" + JdbcConfiguration.PORT + "}/${"
                    + JdbcConfiguration.DATABASE + "}",
            org.postgresql.Driver.class.getName(), StreamingConnectionName.class.getClassLoader(),
            JdbcConfiguration.PORT.withDefault("5432"));

    @Override
    public Connection connect(JdbcConfiguration config) throws SQLException {
        String name = config.getString(NAME_PROPERTY);
        if (name != null && DEBEZIUM_STREAMING.equals(config.getString("ApplicationName"))) {
            config = JdbcConfiguration.adapt(config.edit().with("ApplicationName", name).build());
        }
        return PGJDBC.connect(config);
    }
}
