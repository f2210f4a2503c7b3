package io.rdmarepl.coordinator.machine;

/**
 * The time the state machine decides by: wall time for the history, a monotonic clock for durations and deadlines,
 * and the waits a failover makes on it (an old primary's lease running out). Injected, so a test can let a
 * two-second lease run out at once instead of sleeping through it.
 */
public interface CoordinatorClock {
    /** Wall time, for history entries: System.currentTimeMillis(). */
    long nowMs();

    /** Monotonic time, for durations and deadlines: System.nanoTime(). */
    long nanoTime();

    /** Waits about {@code nanos} (less when interrupted; the caller checks the interrupt). */
    void parkNanos(long nanos);
}
