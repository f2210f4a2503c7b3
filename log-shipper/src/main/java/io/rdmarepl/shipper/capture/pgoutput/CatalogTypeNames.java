package io.rdmarepl.shipper.capture.pgoutput;

import io.rdmarepl.shipper.capture.PrimaryPreflight;
import io.rdmarepl.shipper.config.ShipperConfig;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Type names for the Relation records, asked of the primary's catalog ({@code integer}, {@code bpchar},
 * {@code mood}) on a connection of its own, opened on first use. Only a Relation message of a type no Type
 * message named asks, and the decoder keeps the answers: this is the control path. The name is for reading the
 * stream (the applier casts to the replica's own column types), so a catalog that cannot be asked yields
 * {@code oid:N} and a warning, never a stop.
 */
final class CatalogTypeNames implements TypeNames, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CatalogTypeNames.class);
    /** Without a modifier ({@code bpchar}, {@code "bit"}, {@code integer[]}): castable, and never {@code character(1)}. */
    private static final String QUERY = "SELECT pg_catalog.format_type(t.oid, -1) FROM pg_catalog.pg_type t WHERE t.oid = ?";

    private final ShipperConfig config;
    private Connection connection;

    CatalogTypeNames(ShipperConfig config) {
        this.config = config;
    }

    @Override
    public String typeName(int oid) {
        try {
            if (connection == null || connection.isClosed()) {
                connection = PrimaryPreflight.connect(config);
            }
            try (PreparedStatement query = connection.prepareStatement(QUERY)) {
                query.setLong(1, Integer.toUnsignedLong(oid));
                try (ResultSet rows = query.executeQuery()) {
                    if (rows.next()) {
                        return rows.getString(1);
                    }
                }
            }
        } catch (SQLException e) {
            LOG.warn("cannot read the name of type {} on the primary ({}): the stream names it oid:{}", oid, e.getMessage(), oid);
            close();
        }
        return "oid:" + Integer.toUnsignedLong(oid);
    }

    @Override
    public void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // closing a connection that failed
            }
            connection = null;
        }
    }
}
