package io.rdmarepl.coordinator.detect;

/**
 * A standby as its applier last reported it.
 *
 * @param reachable          its applier's admin endpoint answered one of the last reads ({@link StandbyWatch})
 * @param state              the applier's state (streaming, retrying, draining, promoted...)
 * @param heartbeatAgeMs     since its ring last delivered a frame, as of now; Long.MAX_VALUE when unknown
 * @param backlogBytes       ring bytes the shipper wrote that it has not read yet
 * @param error              why the last read failed, null when it answered
 */
public record StandbyView(String name, boolean reachable, String state, String appliedLsn, String durableLsn,
                          long heartbeatAgeMs, long backlogBytes, long lagMs, int ringEpoch, String error) {
    public static StandbyView unknown(String name, String error) {
        return new StandbyView(name, false, "unknown", null, null, Long.MAX_VALUE, Long.MAX_VALUE, -1, 0, error);
    }

    /** This report with its heartbeat age {@code ms} later. */
    public StandbyView agedBy(long ms) {
        return new StandbyView(name, reachable, state, appliedLsn, durableLsn, heartbeatAgeMs + ms, backlogBytes, lagMs,
                ringEpoch, error);
    }

    /** This report, still standing, after a read that failed with {@code why}. */
    public StandbyView afterFailedRead(String why) {
        return new StandbyView(name, reachable, state, appliedLsn, durableLsn, heartbeatAgeMs, backlogBytes, lagMs,
                ringEpoch, "last read failed: " + why);
    }
}
