package io.rdmarepl.shipper.lease;

import io.rdmarepl.shipper.capture.PrimaryPreflight;
import io.rdmarepl.shipper.config.ShipperConfig;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a shipper starts fenced: its lease guard fenced the primary for the lease this shipper took over, and the
 * primary still refuses writes. Nothing is shipped from such a primary, and no heartbeat says it is alive. One that
 * takes writes again had its fence lifted by someone who knew no standby was promoted: the shipper ships.
 */
public final class FencedStart {
    private static final Logger LOG = LoggerFactory.getLogger(FencedStart.class);

    private FencedStart() {
    }

    /** @return why the shipper starts fenced, or null; asks the primary only when the guard fenced it */
    public static String reason(GuardedLease lease, ShipperConfig config) {
        String fenced = lease.fencedBefore();
        if (fenced == null) {
            return null;
        }
        try (Connection connection = PrimaryPreflight.connect(config);
             PreparedStatement query = connection.prepareStatement("SELECT current_setting('default_transaction_read_only')");
             ResultSet rs = query.executeQuery()) {
            if (rs.next() && "off".equals(rs.getString(1))) {
                LOG.warn("the lease guard fenced the primary before this shipper started, but it takes writes again"
                        + " (default_transaction_read_only is off): the fence was lifted; shipping");
                return null;
            }
        } catch (SQLException e) {
            LOG.warn("cannot tell whether the primary still refuses writes ({}): starting fenced", e.getMessage());
        }
        return fenced;
    }
}
