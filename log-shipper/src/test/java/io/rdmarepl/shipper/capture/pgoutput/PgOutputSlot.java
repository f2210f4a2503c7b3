package io.rdmarepl.shipper.capture.pgoutput;

import io.rdmarepl.format.Lsn;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Real pgoutput messages without a replication connection: each row of {@code pg_logical_slot_get_binary_changes}
 * with pgoutput's options is one message and its LSN, fed to a decoder as one XLogData payload would be. The type
 * names the decoder asks for come from the catalog, as the shipper's lookup would give them.
 */
final class PgOutputSlot {
    /** What one read of the slot gave: the messages' type bytes, the (xid, subxid) of each Stream Abort, the result. */
    record Decoded(String types, List<int[]> streamAborts, CollectingSink sink) {
        List<CollectingSink.Shipped> shipped() {
            return sink.shipped;
        }
    }

    private final Connection sql;
    private final Connection catalog;
    private final String changes;
    private final List<Integer> namedTypes = new ArrayList<>();

    /** Reads slot {@code slot} (pgoutput) through {@code sql}; names types through {@code catalog}. */
    PgOutputSlot(Connection sql, Connection catalog, String slot, String publication) {
        this.sql = sql;
        this.catalog = catalog;
        this.changes = "SELECT lsn::text, data FROM pg_logical_slot_get_binary_changes('" + slot + "', NULL, NULL,"
            + " 'proto_version', '4', 'publication_names', '" + publication + "', 'messages', 'true', 'streaming', 'on')";
    }

    /** Consumes whatever the slot holds without decoding it. */
    void drain() throws SQLException {
        try (Statement s = sql.createStatement(); ResultSet rs = s.executeQuery(changes)) {
            while (rs.next()) {
                // consumed
            }
        }
    }

    /**
     * Consumes everything the slot holds through a new decoder (a new decoding session, in which pgoutput describes
     * every relation again); fails if a streamed transaction is left in progress.
     */
    Decoded read() throws SQLException {
        CollectingSink sink = new CollectingSink();
        PgOutputDecoder decoder = new PgOutputDecoder(this::typeName, sink, PgOutputDecoder.DEFAULT_MAX_TRANSACTION_BYTES);
        StringBuilder types = new StringBuilder();
        List<int[]> aborts = new ArrayList<>();
        try (Statement s = sql.createStatement(); ResultSet rs = s.executeQuery(changes)) {
            while (rs.next()) {
                long lsn = Lsn.parse(rs.getString(1));
                byte[] data = rs.getBytes(2);
                types.append((char) data[0]);
                ByteBuffer message = ByteBuffer.wrap(data);
                if (data[0] == PgOutputDescriptor.STREAM_ABORT) {
                    aborts.add(new int[] {message.getInt(PgOutputDescriptor.STREAM_ABORT_XID_OFFSET),
                        message.getInt(PgOutputDescriptor.STREAM_ABORT_SUBXID_OFFSET)});
                }
                decoder.decode(message, 0, data.length, lsn, lsn);
            }
        }
        if (decoder.streamedTransactionsInProgress() != 0) {
            throw new AssertionError(decoder.streamedTransactionsInProgress() + " streamed transactions still in progress");
        }
        return new Decoded(types.toString(), aborts, sink);
    }

    /** Every type OID the decoders asked to name, in order. */
    List<Integer> namedTypes() {
        return namedTypes;
    }

    /** The shipper's lookup, as a catalog query. */
    private String typeName(int oid) {
        namedTypes.add(oid);
        try (PreparedStatement s = catalog.prepareStatement("SELECT pg_catalog.format_type(?::oid, NULL)")) {
            s.setLong(1, Integer.toUnsignedLong(oid));
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
