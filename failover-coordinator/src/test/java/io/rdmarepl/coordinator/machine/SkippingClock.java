package io.rdmarepl.coordinator.machine;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The system's clocks, except that a wait passes at once: {@link #parkNanos} moves this clock on by the wait instead
 * of sleeping. A failover that must wait out an old primary's two-second lease does so in no time, in the same
 * order of events. Its monotonic time stays System.nanoTime() plus what was skipped, so deadlines computed from
 * System.nanoTime() elsewhere (the lease's last renewal) still compare.
 */
final class SkippingClock implements CoordinatorClock {
    private final AtomicLong skippedNs = new AtomicLong();

    /** How much waiting was skipped so far. */
    long skippedNs() {
        return skippedNs.get();
    }

    @Override
    public long nowMs() {
        return System.currentTimeMillis() + skippedNs.get() / 1_000_000;
    }

    @Override
    public long nanoTime() {
        return System.nanoTime() + skippedNs.get();
    }

    @Override
    public void parkNanos(long nanos) {
        if (nanos > 0) {
            skippedNs.addAndGet(nanos);
        }
    }
}
