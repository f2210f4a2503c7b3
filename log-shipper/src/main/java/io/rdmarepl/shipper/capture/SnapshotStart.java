package io.rdmarepl.shipper.capture;

import io.rdmarepl.format.Lsn;
import io.rdmarepl.shipper.config.ShipperConfig;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides, at start, whether {@code snapshot.mode=initial} still has a copy to take. Offsets live in memory,
 * so Debezium cannot know; the slot, its recorded copy point and the standbys can. The standbys report the copy's
 * LSN durable only once its last chunk is in. That LSN is recorded in {@link CopyPoints} when the native engine
 * creates the slot; without a record it is the slot's confirmed position, which is the copy's LSN until the copy is
 * acknowledged and only grows after:
 *
 * <ul>
 *   <li>no slot: copy (the engine creates the slot and copies from its exported snapshot);</li>
 *   <li>slot, and the required standbys hold its copy point: the copy is done, stream;</li>
 *   <li>slot, and they do not: a copy was cut short (or never taken). The slot is dropped, so the new copy
 *       starts from a fresh consistent point, and the copy empties the standby's tables before refilling them.
 *       Dropping loses nothing: the new copy holds every row the slot still had to send.</li>
 * </ul>
 */
public final class SnapshotStart {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotStart.class);

    private SnapshotStart() {
    }

    /**
     * @param acknowledgedLsn what every required standby holds durably, from their first feedback
     * @return the {@code snapshot.mode} to run Debezium with
     * @throws IllegalStateException naming the slot when the primary cannot be asked or the slot not dropped
     */
    public static String debeziumMode(ShipperConfig config, long acknowledgedLsn) {
        if (!"initial".equals(config.snapshotMode())) {
            return config.snapshotMode();
        }
        try (Connection connection = PrimaryPreflight.connect(config);
             PreparedStatement slot = connection.prepareStatement(
                     "SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = ?")) {
            slot.setString(1, config.slotName());
            String confirmed;
            try (ResultSet rs = slot.executeQuery()) {
                if (!rs.next()) {
                    LOG.info("no replication slot {} yet: copying the published tables, then streaming", config.slotName());
                    CopyPoints.forget(connection, config.slotName()); // a point left by an earlier slot of that name
                    return "initial";
                }
                confirmed = rs.getString(1);
            }
            long confirmedLsn = confirmed == null ? 0 : Lsn.parse(confirmed);
            OptionalLong recorded = CopyPoints.read(connection, config.slotName());
            long copyLsn = recorded.orElse(confirmedLsn);
            String copyPoint = recorded.isPresent() ? "copy point " + Lsn.format(copyLsn) : "slot " + confirmed;
            if (copyLsn != 0 && Lsn.compare(acknowledgedLsn, copyLsn) >= 0) {
                LOG.info("slot {} exists and the standbys hold its initial copy (durable {} >= {}): streaming",
                        config.slotName(), Lsn.format(acknowledgedLsn), copyPoint);
                return "no_data";
            }
            LOG.warn("slot {} exists but the standbys do not hold its initial copy (durable {} < {}): "
                    + "dropping the slot and copying again", config.slotName(), Lsn.format(acknowledgedLsn), copyPoint);
            try (PreparedStatement drop = connection.prepareStatement("SELECT pg_drop_replication_slot(?)")) {
                drop.setString(1, config.slotName());
                drop.execute();
            }
            CopyPoints.forget(connection, config.slotName());
            return "initial";
        } catch (SQLException e) {
            throw new IllegalStateException("cannot check or drop replication slot " + config.slotName()
                    + " for snapshot.mode=initial: " + e.getMessage(), e);
        }
    }
}
