package io.rdmarepl.shipper.capture.pgoutput;

import io.rdmarepl.shipper.config.ShipperConfig;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The publication the native engine streams: created when missing, {@code FOR ALL TABLES} or for the tables
 * {@code publication.tables} lists, as Debezium's {@code publication.autocreate.mode} does for the other engine. An
 * existing publication is used as it is: the operator owns it.
 */
final class PublicationSetup {
    private PublicationSetup() {
    }

    /** @return true when it had to be created */
    static boolean ensure(Connection connection, ShipperConfig config) throws SQLException {
        try (PreparedStatement exists = connection.prepareStatement("SELECT 1 FROM pg_catalog.pg_publication WHERE pubname = ?")) {
            exists.setString(1, config.publicationName());
            try (ResultSet rows = exists.executeQuery()) {
                if (rows.next()) {
                    return false;
                }
            }
        }
        StringBuilder sql = new StringBuilder("CREATE PUBLICATION ").append(ReplicationCommands.quoteIdentifier(config.publicationName()));
        if (config.publicationTables().isEmpty()) {
            sql.append(" FOR ALL TABLES");
        } else {
            sql.append(" FOR TABLE ");
            for (int i = 0; i < config.publicationTables().size(); i++) {
                String table = config.publicationTables().get(i);
                int dot = table.indexOf('.');
                sql.append(i == 0 ? "" : ", ").append(ReplicationCommands.quoteIdentifier(table.substring(0, dot))).append('.')
                        .append(ReplicationCommands.quoteIdentifier(table.substring(dot + 1)));
            }
        }
        try (Statement create = connection.createStatement()) {
            // in strict sync mode commits may wait for this shipper already (a restart whose publication was dropped)
            create.execute("SET synchronous_commit = local");
            create.execute(sql.toString());
        }
        return true;
    }
}
