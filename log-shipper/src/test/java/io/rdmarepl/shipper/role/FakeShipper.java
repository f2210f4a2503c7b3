package io.rdmarepl.shipper.role;

import io.rdmarepl.control.Guarantee;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** A shipper stand-in for the role's transitions: remembers what it was told. */
final class FakeShipper implements RunningShipper {
    static final Guarantee GUARANTEE = new Guarantee(Guarantee.ASYNC, null, null, "0/16B3748");

    final String snapshotMode;
    volatile String fencedReason;
    volatile boolean closed;
    volatile boolean healthy = true;
    volatile int leaseRenewals;

    FakeShipper(String snapshotMode) {
        this.snapshotMode = snapshotMode;
    }

    @Override
    public void fence(String reason) {
        fencedReason = reason;
    }

    @Override
    public boolean fenced() {
        return fencedReason != null;
    }

    @Override
    public void renewLease() {
        leaseRenewals++;
    }

    @Override
    public Guarantee guarantee() {
        return GUARANTEE;
    }

    @Override
    public boolean healthy() {
        return healthy;
    }

    @Override
    public String failure() {
        return null;
    }

    @Override
    public Map<String, Object> status() {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("state", fenced() ? "fenced" : "streaming");
        status.put("snapshot", snapshotMode);
        status.put("initial_copy", true);
        status.put("copy_lsn", "0/16B3748");
        return status;
    }

    @Override
    public void close(Duration drainTimeout) {
        closed = true;
    }

    @Override
    public void close() {
        closed = true;
    }
}
