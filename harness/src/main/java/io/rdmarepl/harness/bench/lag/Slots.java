package io.rdmarepl.harness.bench.lag;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Replication slots on the primary: waiting until one is streamed from (or caught up, or left alone), and dropping one
 * once its consumer left.
 */
public final class Slots {
    private Slots() {
    }

    /**
     * @throws IllegalStateException naming the slot when it is not active within {@code timeout}
     */
    public static void awaitActive(Endpoint primary, String slot, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (Boolean.TRUE.equals(active(primary, slot))) {
                return;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        throw new IllegalStateException("replication slot " + slot + " on " + primary + " not streamed from within "
                + timeout.toMillis() + " ms");
    }

    /**
     * Waits until a walsender streams from {@code slot} and has caught up with the WAL ({@code pg_stat_replication.state}
     * streaming): only then is a new slot surely made (a slot being created is listed, and active, before it is
     * persisted; a consumer that stops then loses it).
     *
     * @throws IllegalStateException naming the slot and its walsender's state when it does not stream within {@code timeout}
     */
    public static void awaitStreaming(Endpoint primary, String slot, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String state = null;
        while (System.nanoTime() - deadline < 0) {
            try (Connection c = primary.connect("postgres");
                 PreparedStatement query = c.prepareStatement("SELECT r.state FROM pg_replication_slots s"
                         + " JOIN pg_stat_replication r ON r.pid = s.active_pid WHERE s.slot_name = ?")) {
                query.setString(1, slot);
                try (ResultSet rs = query.executeQuery()) {
                    state = rs.next() ? rs.getString(1) : null;
                }
            } catch (SQLException e) {
                throw new IllegalStateException("cannot read replication slot " + slot + " on " + primary + ": " + e.getMessage(), e);
            }
            if ("streaming".equals(state)) {
                return;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        throw new IllegalStateException("replication slot " + slot + " on " + primary + " not streamed from within "
                + timeout.toMillis() + " ms (walsender state " + state + ")");
    }

    /**
     * Waits until nothing streams from {@code slot} any more (its walsender exited): a consumer that was told to stop
     * lets go of it asynchronously.
     *
     * @throws IllegalStateException naming the slot when it is missing, or still active after {@code timeout}
     */
    public static void awaitInactive(Endpoint primary, String slot, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Boolean active = active(primary, slot);
            if (active == null) {
                throw new IllegalStateException("replication slot " + slot + " on " + primary + " is gone; it should have been kept");
            }
            if (!active) {
                return;
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new IllegalStateException("replication slot " + slot + " on " + primary + " still streamed from after "
                        + timeout.toMillis() + " ms");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    /** Drops {@code slot} if it exists, waiting up to {@code timeout} for its consumer to let go of it. */
    public static void drop(Endpoint primary, String slot, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Boolean active = active(primary, slot);
            if (active == null) {
                return;
            }
            if (!active) {
                try (Connection c = primary.connect("postgres");
                     PreparedStatement drop = c.prepareStatement("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
                             + " WHERE slot_name = ? AND NOT active")) {
                    drop.setString(1, slot);
                    drop.execute();
                } catch (SQLException e) {
                    if (System.nanoTime() - deadline >= 0) {
                        throw new IllegalStateException("cannot drop replication slot " + slot + " on " + primary + ": " + e.getMessage(), e);
                    }
                }
            } else if (System.nanoTime() - deadline >= 0) {
                throw new IllegalStateException("replication slot " + slot + " on " + primary + " still in use after "
                        + timeout.toMillis() + " ms; not dropped");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    /** @return whether the slot is active, null when there is no such slot */
    private static Boolean active(Endpoint primary, String slot) {
        try (Connection c = primary.connect("postgres");
             PreparedStatement query = c.prepareStatement("SELECT active FROM pg_replication_slots WHERE slot_name = ?")) {
            query.setString(1, slot);
            try (ResultSet rs = query.executeQuery()) {
                return rs.next() ? rs.getBoolean(1) : null;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read replication slot " + slot + " on " + primary + ": " + e.getMessage(), e);
        }
    }
}
