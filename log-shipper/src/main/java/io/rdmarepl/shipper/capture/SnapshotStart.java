package io.rdmarepl.shipper.capture;

import io.rdmarepl.format.Lsn;
import io.rdmarepl.shipper.config.ShipperConfig;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides, at start, whether {@code snapshot.mode=initial} still has a copy to take. Offsets live in memory,
 * so Debezium cannot know; the slot and the standbys can. A new slot's confirmed position is the LSN its copy
 * is taken at, and the standbys report that LSN durable only once the copy's last chunk is in:
 *
 * <ul>
 *   <li>no slot: copy (Debezium creates the slot and copies from its exported snapshot);</li>
 *   <li>slot, and the required standbys hold its confirmed position: the copy is done, stream;</li>
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
                    return "initial";
                }
                confirmed = rs.getString(1);
            }
            long confirmedLsn = confirmed == null ? 0 : Lsn.parse(confirmed);
            if (confirmedLsn != 0 && Lsn.compare(acknowledgedLsn, confirmedLsn) >= 0) {
                LOG.info("slot {} exists and the standbys hold its initial copy (durable {} >= slot {}): streaming",
                        config.slotName(), Lsn.format(acknowledgedLsn), confirmed);
                return "no_data";
            }
            LOG.warn("slot {} exists but the standbys do not hold its initial copy (durable {} < slot {}): "
                    + "dropping the slot and copying again", config.slotName(), Lsn.format(acknowledgedLsn), confirmed);
            try (PreparedStatement drop = connection.prepareStatement("SELECT pg_drop_replication_slot(?)")) {
                drop.setString(1, config.slotName());
                drop.execute();
            }
            return "initial";
        } catch (SQLException e) {
            throw new IllegalStateException("cannot check or drop replication slot " + config.slotName()
                    + " for snapshot.mode=initial: " + e.getMessage(), e);
        }
    }
}
