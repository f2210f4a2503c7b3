package io.rdmarepl.shipper.ship;

import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The lowest durable LSN across the standbys whose acknowledgement is required: what the primary
 * may forget. Standby handlers report, the capture thread reads.
 */
public final class AckTracker {
    private final AtomicLongArray durable;
    private final boolean[] required;
    private volatile long acknowledged;

    public AckTracker(List<Boolean> required) {
        this.durable = new AtomicLongArray(required.size());
        this.required = new boolean[required.size()];
        for (int i = 0; i < required.size(); i++) {
            this.required[i] = required.get(i);
        }
    }

    /** Standby {@code index} holds every transaction up to {@code lsn} durably. */
    void durable(int index, long lsn) {
        if (Long.compareUnsigned(lsn, durable.get(index)) <= 0) {
            return;
        }
        durable.set(index, lsn);
        long lowest = -1L;
        for (int i = 0; i < required.length; i++) {
            if (required[i] && Long.compareUnsigned(durable.get(i), lowest) < 0) {
                lowest = durable.get(i);
            }
        }
        if (Long.compareUnsigned(lowest, acknowledged) > 0) {
            acknowledged = lowest;
        }
    }

    /** Every transaction with a commit LSN at or below this is durable on all required standbys. */
    public long acknowledged() {
        return acknowledged;
    }

    public long durable(int index) {
        return durable.get(index);
    }
}
