package io.rdmarepl.shipper.capture;

import io.debezium.jdbc.JdbcConfiguration;
import io.debezium.jdbc.JdbcConnection;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Debezium's connection factory ({@code database.connection.factory.class}): every connection Debezium opens
 * (snapshot, metadata and the replication connection) goes through it. It makes them as Debezium would, with three
 * changes:
 * <ul>
 *   <li>every session runs with {@link CaptureSessionSettings} (sent as {@code options}, after the operator's), so
 *       the values Debezium reads are in the forms it and the encoder parse, whatever the primary's defaults;</li>
 *   <li>every session commits locally ({@code synchronous_commit=local}): in strict sync mode a restarting shipper lists
 *       itself before Debezium starts, and a publication Debezium alters would otherwise wait for the very shipper
 *       that waits for Debezium;</li>
 *   <li>the replication connection gets the shipper's own {@code application_name}: Debezium fixes it to
 *       {@value #DEBEZIUM_STREAMING} after every user property, and {@code synchronous_standby_names} must name this
 *       shipper, not every Debezium that streams from the primary.</li>
 * </ul>
 */
public final class DebeziumConnectionFactory implements JdbcConnection.ConnectionFactory {
    /** The connection property (under {@code database.}) that carries the name. */
    public static final String NAME_PROPERTY = "rdmareplStreamingName";
    static final String DEBEZIUM_STREAMING = "Debezium Streaming";
    private static final String LOCAL_COMMITS = " -c synchronous_commit=local";

    private static final JdbcConnection.ConnectionFactory PGJDBC = JdbcConnection.patternBasedFactory(
            "jdbc:postgresql://${" + JdbcConfiguration.HOSTNAME + "}:${" + JdbcConfiguration.PORT + "}/${"
                    + JdbcConfiguration.DATABASE + "}",
            org.postgresql.Driver.class.getName(), DebeziumConnectionFactory.class.getClassLoader(),
            JdbcConfiguration.PORT.withDefault("5432"));

    @Override
    public Connection connect(JdbcConfiguration config) throws SQLException {
        var edited = config.edit().with(CaptureSessionSettings.OPTIONS_PROPERTY,
                CaptureSessionSettings.options(config.getString(CaptureSessionSettings.OPTIONS_PROPERTY)) + LOCAL_COMMITS);
        String name = config.getString(NAME_PROPERTY);
        if (name != null && DEBEZIUM_STREAMING.equals(config.getString("ApplicationName"))) {
            edited = edited.with("ApplicationName", name);
        }
        return PGJDBC.connect(JdbcConfiguration.adapt(edited.build()));
    }
}
