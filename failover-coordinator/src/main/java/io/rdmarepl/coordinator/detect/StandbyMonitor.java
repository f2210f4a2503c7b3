package io.rdmarepl.coordinator.detect;

/**
 * One standby as its applier reports it ({@link StandbyWatch} reads its {@code /status} on its own thread). An
 * interface so the state machine's tests can say what a standby reports, and when.
 */
public interface StandbyMonitor extends AutoCloseable {
    String name();

    /** The last report, with its heartbeat age brought forward to now. */
    StandbyView view();

    /**
     * A report read now, waiting up to {@code wait} for the applier's answer, when the last one says it is unreachable
     * (the watch gives an applier a short time, for detection's sake); else {@link #view()}.
     */
    default StandbyView freshView(java.time.Duration wait) {
        return view();
    }

    /**
     * A report read now, waiting up to {@code wait}; {@link #view()} when the applier does not answer. The watch
     * reports positions only when something else changes or every few hundred ms: for a caller waiting for one to move.
     */
    default StandbyView readNow(java.time.Duration wait) {
        return view();
    }

    /** Why the applier is paused or retrying, as its last report said, else null. */
    String applierError();

    @Override
    void close();
}
