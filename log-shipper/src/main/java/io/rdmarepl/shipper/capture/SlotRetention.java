package io.rdmarepl.shipper.capture;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.rdmarepl.shipper.config.ShipperConfig;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * WAL the primary keeps for the shipper's slot: from the slot's {@code restart_lsn} to the primary's current WAL
 * position, what the standbys have not made durable yet. A standby that stops reporting makes it grow until the
 * primary's disk is full, so it is in {@code /status} ({@code slot_retained_wal_bytes}) and a gauge.
 */
public final class SlotRetention {
    /** {@code rdmarepl_shipper_slot_retained_wal_bytes{slot=...}} in Prometheus. */
    public static final String METRIC = "rdmarepl_shipper_slot_retained_wal_bytes";

    /** How long a scrape of /metrics waits for the primary before the gauge reads NaN. */
    static final int SCRAPE_TIMEOUT_SECONDS = 2;

    private static final String QUERY =
            "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)::bigint FROM pg_replication_slots WHERE slot_name = ?";

    private SlotRetention() {
    }

    /** Bytes retained for {@code slot.name}; null when the slot does not exist or the primary cannot be asked. */
    public static Long retainedWalBytes(ShipperConfig config) {
        try (Connection connection = PrimaryPreflight.connect(config)) {
            return query(connection, config.slotName());
        } catch (SQLException e) {
            return null;
        }
    }

    /**
     * Registers the gauge, read at each scrape with short timeouts: NaN while the slot does not exist (a shipper
     * waiting for activation, retired) or the primary does not answer. It outlives the shippers a role starts: a
     * fenced shipper's slot keeps WAL too.
     */
    public static void register(MeterRegistry registry, ShipperConfig config) {
        Gauge.builder(METRIC, config, SlotRetention::scrape)
                .description("WAL the primary keeps for the slot: what the standbys have not made durable yet")
                .tag("slot", config.slotName()).baseUnit("bytes").strongReference(true).register(registry);
    }

    private static double scrape(ShipperConfig config) {
        try (Connection connection = PrimaryPreflight.connect(config, SCRAPE_TIMEOUT_SECONDS)) {
            Long bytes = query(connection, config.slotName());
            return bytes == null ? Double.NaN : bytes;
        } catch (SQLException e) {
            return Double.NaN;
        }
    }

    private static Long query(Connection connection, String slot) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(QUERY)) {
            query.setString(1, slot);
            try (ResultSet rs = query.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }
}
