package io.rdmarepl.shipper.ship;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What the standbys whose acknowledgement is required hold, reduced to the one LSN the shipper confirms to the
 * primary (which then forgets the WAL before it and, in sync mode, releases the commits waiting for it): the
 * {@code quorum}-th highest of their positions. With the quorum at every required standby (async mode, and sync
 * by default) that is the lowest. A position is what the standby made durable, or in {@code remote_apply} sync
 * mode what it made durable and applied. Standby handlers report, the capture thread reads.
 */
public final class AckTracker {
    private final AtomicLongArray held;
    private final boolean[] required;
    private final int quorum;
    private final boolean applied;
    private final long[] scratch;
    private volatile long acknowledged;
    /** The LSN the capture thread waits for the quorum to hold (sync mode), 0 when it waits for none. */
    private volatile long awaited;
    private volatile Runnable onAwaiting = () -> {
    };
    private volatile java.util.function.LongConsumer onAcknowledged = lsn -> {
    };

    /** Every required standby must hold a transaction; durable is enough. */
    public AckTracker(List<Boolean> required) {
        this(required, (int) required.stream().filter(r -> r).count(), false);
    }

    /**
     * @param quorum  how many required standbys must hold a transaction (1..number required)
     * @param applied whether it must be applied there too ({@code sync.level=remote_apply}), not only durable
     */
    public AckTracker(List<Boolean> required, int quorum, boolean applied) {
        this.held = new AtomicLongArray(required.size());
        this.required = new boolean[required.size()];
        int count = 0;
        for (int i = 0; i < required.size(); i++) {
            this.required[i] = required.get(i);
            count += required.get(i) ? 1 : 0;
        }
        if (quorum < 1 || quorum > count) {
            throw new IllegalArgumentException("quorum " + quorum + " must be 1.." + count + " (the required standbys)");
        }
        this.quorum = quorum;
        this.applied = applied;
        this.scratch = new long[count];
    }

    /** Standby {@code index} reports what it applied and what it made durable. */
    void report(int index, long appliedLsn, long durableLsn) {
        long lsn = applied && Long.compareUnsigned(appliedLsn, durableLsn) < 0 ? appliedLsn : durableLsn;
        if (Long.compareUnsigned(lsn, held.get(index)) <= 0) {
            return;
        }
        held.set(index, lsn);
        long moved = recompute();
        if (moved != 0) {
            onAcknowledged.accept(moved); // outside the lock: the listener may write to a socket
        }
    }

    /** Standby {@code index} holds every transaction up to {@code lsn} durably (and applied, as far as it says). */
    void durable(int index, long lsn) {
        report(index, lsn, lsn);
    }

    /** @return the new acknowledged LSN when it moved, else 0 */
    private synchronized long recompute() {
        int n = 0;
        for (int i = 0; i < required.length; i++) {
            if (required[i]) {
                scratch[n++] = held.get(i);
            }
        }
        Arrays.sort(scratch, 0, n); // unsigned order equals signed order for LSNs below 2^63
        long reached = scratch[n - quorum];
        if (Long.compareUnsigned(reached, acknowledged) > 0) {
            acknowledged = reached;
            return reached;
        }
        return 0;
    }

    /**
     * The capture thread now waits until the quorum holds {@code lsn}: the standby handlers read feedback at once
     * until it does, instead of at their next heartbeat.
     */
    public void awaiting(long lsn) {
        awaited = lsn;
        onAwaiting.run();
    }

    /** Whether an acknowledgement is awaited that the quorum has not given yet. */
    boolean acknowledgementAwaited() {
        return Long.compareUnsigned(acknowledged, awaited) < 0;
    }

    /** Run by {@link #awaiting}: wakes the handlers blocked until their next heartbeat. */
    void onAwaiting(Runnable wake) {
        this.onAwaiting = wake;
    }

    /**
     * Called, on the standby handler's thread that moved it, each time {@link #acknowledged()} moves: a capture engine
     * that confirms to the slot itself does so at once, without waiting for its reading thread.
     */
    public void onAcknowledged(java.util.function.LongConsumer listener) {
        this.onAcknowledged = listener;
    }

    /** Every transaction with a commit LSN at or below this is held by the quorum of required standbys. */
    public long acknowledged() {
        return acknowledged;
    }

    public long durable(int index) {
        return held.get(index);
    }
}
