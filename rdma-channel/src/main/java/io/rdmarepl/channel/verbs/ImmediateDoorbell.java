package io.rdmarepl.channel.verbs;

import io.rdmarepl.channel.ring.Doorbell;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * The doorbell of a verbs ring's reader: the receives of whichever writer is connected now
 * ({@link DoorbellReceives}). With no writer connected, or one whose queue pair was flushed (until the conductor
 * hears of the disconnect, which may take seconds on hardware), there is nothing to ring it, and a sleep parks out
 * its time rather than return at once.
 * The address word it announces in the feedback image is {@link #ADDRESS}: a writer that finds 0 there (a reader of
 * an older release, which posts no receives) must not ring, since its ring would find no receive posted.
 */
final class ImmediateDoorbell implements Doorbell {
    /** The doorbell address word of a verbs reader: "ring me with an RDMA WRITE WITH IMMEDIATE on the ring's queue pair". */
    static final int ADDRESS = 1;

    private final Supplier<DoorbellReceives> receives;
    private volatile boolean wakeUpPending;

    ImmediateDoorbell(Supplier<DoorbellReceives> receives) {
        this.receives = receives;
    }

    @Override
    public boolean await(long timeoutNs) {
        if (wakeUpPending) {
            wakeUpPending = false;
            return true;
        }
        DoorbellReceives current = receives.get();
        if (current == null || current.isClosed()) {
            // no writer, or one whose queue pair is gone until the conductor hears of it: nothing can ring
            LockSupport.parkNanos(timeoutNs);
            return false;
        }
        try {
            return current.await(timeoutNs);
        } catch (IOException e) {
            throw new UncheckedIOException("doorbell of a verbs ring failed: " + e.getMessage(), e);
        }
    }

    /**
     * Ends the next await at once. An await already blocked ends at its bound: a completion channel cannot be woken
     * from this side. Over verbs a command for the apply thread (a drain, a promotion) therefore still waits out the
     * sleep it arrives in, up to {@code apply.idle.max.park.us} (1 ms by default).
     */
    @Override
    public void wakeUp() {
        wakeUpPending = true;
    }

    @Override
    public void close() {
        // the receives belong to the writer's session, closed with it
    }
}
