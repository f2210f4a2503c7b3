package io.rdmarepl.shipper.role;

import io.rdmarepl.shipper.capture.PrimaryPreflight;
import io.rdmarepl.shipper.config.ShipperConfig;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Drops {@code slot.name} on the primary. A slot still streamed to (a shipper that was just fenced lets go of its
 * replication connection only once Debezium has stopped) cannot be dropped, so an active slot is waited for, up to
 * a bound: a slot held for longer belongs to a consumer that is not letting go, which the caller must hear about.
 */
public final class PrimarySlotDropper implements SlotDropper {
    /** How long an active slot is waited for: a fenced engine closes well within it. */
    public static final Duration ACTIVE_WAIT = Duration.ofSeconds(10);

    private static final String OBJECT_IN_USE = "55006";
    private static final String UNDEFINED_OBJECT = "42704";

    private final ShipperConfig config;
    private final Duration activeWait;

    public PrimarySlotDropper(ShipperConfig config, Duration activeWait) {
        this.config = config;
        this.activeWait = activeWait;
    }

    @Override
    public boolean dropIfExists() {
        String slot = config.slotName();
        long deadline = System.nanoTime() + activeWait.toNanos();
        try (Connection connection = PrimaryPreflight.connect(config);
             PreparedStatement activePid = connection.prepareStatement(
                     "SELECT active_pid FROM pg_replication_slots WHERE slot_name = ?");
             PreparedStatement drop = connection.prepareStatement("SELECT pg_drop_replication_slot(?)")) {
            activePid.setString(1, slot);
            drop.setString(1, slot);
            while (true) {
                Long pid;
                try (ResultSet rs = activePid.executeQuery()) {
                    if (!rs.next()) {
                        return false;
                    }
                    long value = rs.getLong(1);
                    pid = rs.wasNull() ? null : value;
                }
                if (pid == null) {
                    try {
                        drop.execute();
                        return true;
                    } catch (SQLException e) {
                        if (UNDEFINED_OBJECT.equals(e.getSQLState())) {
                            return false; // dropped by someone else meanwhile
                        }
                        if (!OBJECT_IN_USE.equals(e.getSQLState())) {
                            throw e;
                        }
                        // taken again between the two statements: wait like for any active slot
                    }
                }
                if (System.nanoTime() - deadline > 0) {
                    String holder = pid == null ? "a backend" : "backend pid " + pid;
                    throw new IllegalStateException("replication slot " + slot + " on " + config.databaseDescription()
                            + " is still in use by " + holder + " after " + activeWait.toSeconds()
                            + " s: another shipper streams from it; stop it"
                            + (pid == null ? "" : ", or end it with pg_terminate_backend(" + pid + ")"));
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot drop replication slot " + slot + ": primary " + config.databaseDescription()
                    + " unreachable or refused: " + e.getMessage(), e);
        }
    }
}
