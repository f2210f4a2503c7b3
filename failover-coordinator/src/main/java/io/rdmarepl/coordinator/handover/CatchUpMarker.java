package io.rdmarepl.coordinator.handover;

import io.rdmarepl.coordinator.config.MemberConfig;
import io.rdmarepl.coordinator.detect.StandbyView;
import io.rdmarepl.format.CatchUpMarkers;
import io.rdmarepl.format.Lsn;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Proves a standby holds everything its primary committed: a marker committed on the primary once it refuses client
 * writes follows every client commit in the WAL, so a standby whose applied LSN reaches the marker's has applied them
 * all ({@link SqlCatchUpMarker} writes it). An interface so the state machine's tests can switch over without a server.
 */
public interface CatchUpMarker {
    /** The prefix the shipper ships as an empty transaction. */
    String PREFIX = CatchUpMarkers.PREFIX;

    /**
     * Commits a marker on {@code primary} (which refuses client writes now; the marker's session writes anyway).
     *
     * @return the marker's LSN
     */
    long emit(MemberConfig primary, String why) throws SQLException;

    /**
     * Waits until the standby's applier reports an applied LSN at or past {@code markerLsn}.
     *
     * @return how long it took, or empty when {@code timeout} passed first
     */
    static Optional<Duration> awaitApplied(Supplier<StandbyView> standby, long markerLsn, Duration timeout) {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            StandbyView view = standby.get();
            if (view.appliedLsn() != null && Lsn.compare(Lsn.parse(view.appliedLsn()), markerLsn) >= 0) {
                return Optional.of(Duration.ofNanos(System.nanoTime() - start));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        return Optional.empty();
    }
}
