package io.rdmarepl.shipper.capture;

import io.rdmarepl.shipper.config.InternalSchema;
import io.rdmarepl.shipper.config.ShipperConfig;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The tables the shipper's publication covers, as the primary lists them now, less the {@link InternalSchema}'s:
 * a FOR ALL TABLES publication lists the applier's bookkeeping on a member that was a standby, and an initial
 * copy must neither ship nor empty it.
 */
public final class PublishedTables {
    private PublishedTables() {
    }

    /**
     * @return schema and table of each published table, in name order
     * @throws IllegalStateException naming the publication when the primary cannot be asked
     */
    public static List<String[]> of(ShipperConfig config) {
        try (Connection connection = PrimaryPreflight.connect(config);
             PreparedStatement query = connection.prepareStatement(
                     "SELECT schemaname, tablename FROM pg_publication_tables WHERE pubname = ? AND schemaname <> ? ORDER BY 1, 2")) {
            query.setString(1, config.publicationName());
            query.setString(2, InternalSchema.NAME);
            List<String[]> tables = new ArrayList<>();
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    tables.add(new String[] {rs.getString(1), rs.getString(2)});
                }
            }
            return tables;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot list the tables of publication " + config.publicationName()
                    + " on the primary: " + e.getMessage(), e);
        }
    }
}
