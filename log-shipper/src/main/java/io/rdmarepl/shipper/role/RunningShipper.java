package io.rdmarepl.shipper.role;

import io.rdmarepl.control.Guarantee;
import io.rdmarepl.control.PrimaryAnswer;
import io.rdmarepl.shipper.Shipper;
import java.time.Duration;
import java.util.Map;

/** What a {@link ShipperRole} needs of the shipper it holds: a {@link Shipper}, or a stand-in in tests. */
public interface RunningShipper {
    void fence(String reason);

    boolean fenced();

    void renewLease();

    /** {@link Shipper#guarantee()}: the replication mode and what the standbys acknowledged; null when it cannot say. */
    default Guarantee guarantee() {
        return null;
    }

    /** {@link Shipper#copyProgress()}: a running initial copy in brief, or null. */
    default Map<String, Object> copyProgress() {
        return null;
    }

    boolean healthy();

    /**
     * {@link Shipper#primary(Duration)}: is the primary alive, did its postmaster exit (waiting up to {@code wait} for
     * it); {@code shipping} is true. One that cannot say answers only that.
     */
    default PrimaryAnswer primary(Duration wait) throws InterruptedException {
        return new PrimaryAnswer(true, null, null, null, null);
    }

    /** Why it stopped for a reason a restart would have to fix, or null. */
    String failure();

    Map<String, Object> status();

    /** Graceful stop: waits up to {@code drainTimeout} for the standbys to acknowledge what was shipped. */
    void close(Duration drainTimeout);

    /** Stops at once; a clean stop: the lease is released. */
    void close();

    /** Stops at once, leaving the lease counting for its guard ({@link Shipper#abandon()}): the process exits on a failure. */
    default void abandon() {
        close();
    }

    static RunningShipper of(Shipper shipper) {
        return new RunningShipper() {
            @Override
            public void fence(String reason) {
                shipper.fence(reason);
            }

            @Override
            public boolean fenced() {
                return shipper.fenced();
            }

            @Override
            public void renewLease() {
                shipper.renewLease();
            }

            @Override
            public Guarantee guarantee() {
                return shipper.guarantee();
            }

            @Override
            public Map<String, Object> copyProgress() {
                return shipper.copyProgress();
            }

            @Override
            public boolean healthy() {
                return shipper.healthy();
            }

            @Override
            public PrimaryAnswer primary(Duration wait) throws InterruptedException {
                return shipper.primary(wait);
            }

            @Override
            public String failure() {
                return shipper.failure();
            }

            @Override
            public Map<String, Object> status() {
                return shipper.status();
            }

            @Override
            public void close(Duration drainTimeout) {
                shipper.close(drainTimeout);
            }

            @Override
            public void close() {
                shipper.close();
            }

            @Override
            public void abandon() {
                shipper.abandon();
            }
        };
    }
}
