package io.rdmarepl.testsupport.history;

import java.util.concurrent.TimeUnit;

/** The span in which one member acknowledged writes: from its first acknowledgement to its last. */
public record PrimaryWindow(String member, Ack first, Ack last, long acks) {
    public boolean overlaps(PrimaryWindow other) {
        return first.acknowledgedNs() <= other.last.acknowledgedNs() && other.first.acknowledgedNs() <= last.acknowledgedNs();
    }

    /** How long after this window {@code later} begins, in ms; negative when they overlap by that much. */
    public long gapMsBefore(PrimaryWindow later) {
        return TimeUnit.NANOSECONDS.toMillis(later.first.acknowledgedNs() - last.acknowledgedNs());
    }
}
